"""``{% shared "name" [variable …] %} … {% endshared %}``: a part of a page that every reader
with the same view shares, rendered once per club data version (views/page_cache.py).

Loaded everywhere through TEMPLATES builtins. The view passes a ``SharedParts`` as ``shared``.
Inside the tag the template sees only what that view builds for everyone, the named
``variable``s (which become part of the key: ``{% shared "deals" can_record %}`` keeps one
copy for those who may record and one for those who may not) and what a visitor of the same
address with no session would see (``request``, ``user``, ``csrf_token``: the placeholder).
Nothing else of the page's context reaches it, so no reader's own parts (their name, their
standing, their token) can be kept for another. A ``{% shared %}`` inside another (an included
template that also stands alone, as an htmx fragment) is rendered with the outer one.
"""

from django import template

from ..views.page_cache import SharedParts

register = template.Library()

INSIDE = "efuda_inside_shared"


class SharedNode(template.Node):
    def __init__(self, nodelist, name, names: list[str]):
        self.nodelist = nodelist
        self.name = name
        self.vary = [(n, template.Variable(n)) for n in names]

    def render(self, context):
        if context.get(INSIDE):
            return self.nodelist.render(context)
        parts = context.get("shared")
        if not isinstance(parts, SharedParts):
            raise template.TemplateSyntaxError(
                "{% shared %} needs the view to pass a SharedParts as 'shared'"
            )
        name = self.name.resolve(context)
        vary = {n: variable.resolve(context) for n, variable in self.vary}

        def render():
            values = parts.values(context.template.engine.template_context_processors)
            inner = context.new({**values, **vary, INSIDE: True})
            inner.request = values["request"]
            return self.nodelist.render(inner)

        return parts.part(name, vary, render)


@register.tag
def shared(parser, token):
    bits = token.split_contents()
    if len(bits) < 2:
        raise template.TemplateSyntaxError('{% shared %} takes a name: {% shared "table" %}')
    for name in bits[2:]:
        if not name.isidentifier():
            raise template.TemplateSyntaxError(f"{{% shared %}} varies by variables, not {name}")
    nodelist = parser.parse(("endshared",))
    parser.delete_first_token()
    return SharedNode(nodelist, parser.compile_filter(bits[1]), bits[2:])
