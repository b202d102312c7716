"""The Jinja2 environment of the table fragment (see TEMPLATES in settings)."""
import jinja2


class Environment(jinja2.Environment):
    """Looks up ``a.b`` in a dict as ``a["b"]`` first.

    The fragment's context is plain dicts; Jinja2's default tries the attribute first and
    gets there by an AttributeError, about a hundred times per fragment drawn.
    """

    def getattr(self, obj, attribute):
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)
