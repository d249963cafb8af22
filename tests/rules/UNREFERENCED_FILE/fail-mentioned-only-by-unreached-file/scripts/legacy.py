SCHEMAS = "schemas"
