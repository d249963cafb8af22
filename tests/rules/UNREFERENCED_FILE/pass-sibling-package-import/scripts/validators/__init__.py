from .schema_rules import RULES

__all__ = ["RULES"]
