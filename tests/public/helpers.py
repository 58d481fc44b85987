"""What a page's shared parts were rendered with (views/page_cache.py: SharedParts)."""


def shared(response) -> dict:
    """The values the view built for the page's shared parts (the response of a request that
    rendered them, not one served from the cache)."""
    return response.context["shared"].values()
