"""PDF reports (WeasyPrint): functions returning bytes from the same rows as the HTML pages."""

from .sheets import blank_sheet_pdf, club_blank_sheet_pdf, session_sheet_pdf
from .standings import standings_pdf

__all__ = ["blank_sheet_pdf", "club_blank_sheet_pdf", "session_sheet_pdf", "standings_pdf"]
