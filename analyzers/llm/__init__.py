"""The only door to models: request/reply types, the provider interface, the gateway (cache, ledger,
budget, deadline, concurrency) and the anthropic implementation. Nothing else in `analyzers/` talks to a
model or opens a connection. `anthropic` is imported only when a real provider is built."""
