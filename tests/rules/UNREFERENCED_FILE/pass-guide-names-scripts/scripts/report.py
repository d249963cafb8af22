from .render import render

render()
