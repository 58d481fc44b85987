"""Fixtures shared by the entry-view tests."""

import pytest


@pytest.fixture
def keeper(client, users):
    """The test client, logged in as the club's scorekeeper."""
    client.force_login(users["scorekeeper"])
    return client
