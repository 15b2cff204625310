"""The reference documents, shipped with the package (`rulelang help TOPIC`); a test keeps them identical to docs/."""
