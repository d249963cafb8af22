"""LSP handlers, one module per area; importing this package registers them on `server`."""

# one module a line: each helper area adds its own
from . import (
    actions,  # noqa: F401
    commands,  # noqa: F401
    comprehension,  # noqa: F401
    diagnostics,  # noqa: F401
    hover,  # noqa: F401
    lifecycle,  # noqa: F401
    navigation,  # noqa: F401
    optimize,  # noqa: F401
    report_html,  # noqa: F401
    sync,  # noqa: F401
    tasksuite,  # noqa: F401
)
