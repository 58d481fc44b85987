"""Services: the only code that writes. Each runs in one transaction and raises
``core.errors.EfudaError`` (translatable, with the field it concerns) for bad input."""
