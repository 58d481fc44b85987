"""Template filters for text people typed (loaded everywhere through TEMPLATES builtins)."""

from django import template

register = template.Library()

FSI, PDI = "\u2068", "\u2069"  # FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE


@register.filter
def isolate(value) -> str:
    """A name in a ``<title>``, where ``<bdi>`` cannot be used: wrapped in Unicode isolates, so a
    right-to-left name never reorders the words around it. Names cannot hold bidi controls of
    their own (services/names.py), so the pair always closes."""
    if value is None or value == "":
        return ""
    return f"{FSI}{value}{PDI}"
