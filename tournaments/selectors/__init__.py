"""Reads: standings, sessions and player statistics (never writes)."""
