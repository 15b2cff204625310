"""The language server (`rulelang lsp`): `server` speaks LSP over pygls; `actions`, `complete` and `views` add its features."""
