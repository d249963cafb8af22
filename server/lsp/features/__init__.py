"""LSP handlers, one module per area; importing this package registers them on `server`."""

from . import actions, commands, diagnostics, hover, lifecycle, navigation, optimize, sync  # noqa: F401
