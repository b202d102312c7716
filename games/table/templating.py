"""The Jinja2 environment of the table's templates (``templates/jinja2``): no Django, so the
browser's offline table draws with it too (:mod:`games.table.offline`).

The table is drawn for every seat at every move of every live table, so the two things
Jinja2 does most often while drawing it are made cheaper here; what they produce is unchanged.
"""
import functools
import re
from pathlib import Path

import jinja2
import markupsafe

CHECKED_WITH = {"Jinja2": "3.1.6"}
"""The version whose source :class:`Template` was read against (it overrides
``jinja2.Template._from_namespace``); ``tests/test_library_internals.py`` fails on an upgrade."""

TEMPLATE_DIR = Path(__file__).resolve().parents[2] / "templates" / "jinja2"

_INDENT = re.compile(r"\n[ \t]+")


def escape(value) -> str:
    """The text autoescaping prints for ``value``: ``markupsafe.escape(value)``, but text
    that needs no escaping and numbers are printed as they are, not first copied into a
    ``Markup``.

    A compiled template calls it only for what it prints: the pieces are joined, and the
    output of a macro or a ``{% set %}`` block is made ``Markup`` as a whole. Autoescaping
    calls it for every ``{{ ... }}`` (about a hundred per fragment): markupsafe's
    ``Markup.__new__`` was a tenth of a loaded server's time, and copying the text into a
    ``Markup`` without it still about 6%.

    >>> escape("<b>Tom & Jerry's</b>")
    Markup('&lt;b&gt;Tom &amp; Jerry&#39;s&lt;/b&gt;')
    >>> escape("Tom"), escape(12), escape(markupsafe.Markup("<i>ok</i>"))
    ('Tom', '12', Markup('<i>ok</i>'))
    """
    kind = type(value)
    if kind is str:
        # What markupsafe.escape replaces; five substring tests are quicker than one pass
        # over the characters in Python's terms.
        if "&" in value or "<" in value or ">" in value or "'" in value or '"' in value:
            return markupsafe.escape(value)
        return value
    if kind is markupsafe.Markup:
        return value
    if kind is int:
        return str(value)
    return markupsafe.escape(value)


class Template(jinja2.Template):
    """A template whose compiled code prints through :func:`escape`."""

    @classmethod
    def _from_namespace(cls, environment, namespace, globals):
        # The compiled module imported jinja2.runtime's escape; its render functions look
        # the name up in this namespace at every call.
        if "escape" in namespace:
            namespace["escape"] = escape
        return super()._from_namespace(environment, namespace, globals)


class Environment(jinja2.Environment):
    """Looks up ``a.b`` in a dict as ``a["b"]`` first, and prints through :func:`escape`.

    The fragment's context is plain dicts; Jinja2's default tries the attribute first and
    gets there by an AttributeError, about a hundred times per fragment drawn.
    """

    template_class = Template

    def preprocess(self, source, name=None, filename=None):
        """The template's source without the indentation of its lines, which only the
        template's reader needs: a line break still separates what it separated in HTML.

        >>> Environment().from_string("<p>\\n    <b>{{ x }}</b>\\n  </p>").render(x=1)
        '<p>\\n<b>1</b>\\n</p>'
        """
        return super().preprocess(_INDENT.sub("\n", source), name, filename)

    def getattr(self, obj, attribute):
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


@functools.cache
def table_templates() -> Environment:
    """The environment of the table's templates.  A missing value prints as nothing (as in
    Django's templates), and a block tag's line leaves no blank line or indentation behind:
    the table's parts are sent over the socket at every move."""
    return Environment(
        loader=jinja2.FileSystemLoader(TEMPLATE_DIR), autoescape=True, undefined=jinja2.Undefined,
        trim_blocks=True, lstrip_blocks=True, auto_reload=False,
    )
