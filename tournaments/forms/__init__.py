"""Forms, by the pages they serve: entry (deals and rounds, and the shared field helpers),
clubs (the club's own pages), events (tournaments), printing (the blank score sheet).

They only parse what the browser sent into plain values; whether a value is acceptable is
decided by the services and the scoring core (EfudaError), and views put those errors beside
the field they name (``entry.add_efuda_error``)."""
