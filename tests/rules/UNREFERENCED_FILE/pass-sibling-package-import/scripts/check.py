from validators import schema_rules
from validators.fields import check

print(schema_rules, check)
