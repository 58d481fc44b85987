"""The smallest shared layer: the user-facing error, the ``N_`` marker and message lines.

``rules`` and ``scoring`` both build on it; it imports nothing from them, nor from Django.
"""
