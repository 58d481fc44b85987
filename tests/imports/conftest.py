import pytest


@pytest.fixture(autouse=True)
def _english(english):
    """These tests assert the English messages of the import."""
