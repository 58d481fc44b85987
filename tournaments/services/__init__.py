"""Services: the only code that writes. Each runs in one transaction and raises
``scoring.errors.EfudaError`` (translatable, with the field it concerns) for bad input."""
