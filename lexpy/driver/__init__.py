"""The parse driver: one parse's input byte stream, tokenizer and tree
builder, owned together (lexpy.parser is its Python face)."""

__all__: list[str] = []
