"""LSP handlers, one module per area; importing this package registers them on `server`."""

from . import actions, commands, comprehension, diagnostics, hover, lifecycle, navigation, sync  # noqa: F401
