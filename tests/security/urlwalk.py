"""Walk the site's URL resolver and build a concrete URL for every route, so tests that must
cover "every view" (CSRF, staff-only admin, hidden cards) discover new views by themselves."""
import re
from dataclasses import dataclass

from django.urls import NoReverseMatch, URLPattern, URLResolver, get_resolver, resolve, reverse
from django.urls.resolvers import RegexPattern, RoutePattern


@dataclass
class Route:
    name: str  # "namespace:name", or the raw pattern when unnamed
    pattern: str  # the full pattern text, for messages
    callback: object
    url: str | None  # a concrete URL that resolves to this route, or None if none could be built
    kwarg_names: tuple

    @property
    def view_name(self) -> str:
        callback = getattr(self.callback, "view_class", None) or self.callback
        module = getattr(callback, "__module__", "?")
        return f"{module}.{getattr(callback, '__qualname__', repr(callback))}"

    @property
    def csrf_exempt(self) -> bool:
        return bool(getattr(self.callback, "csrf_exempt", False))

    def __repr__(self):  # pytest ids
        return self.name


def _patterns(resolver, prefix="", namespaces=()):
    for entry in resolver.url_patterns:
        text = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            spaces = namespaces + ((entry.namespace,) if entry.namespace else ())
            yield from _patterns(entry, text, spaces)
        elif isinstance(entry, URLPattern):
            yield entry, text, namespaces


def _group_names(pattern_text: str) -> tuple:
    regex_names = re.findall(r"\(\?P<(\w+)>", pattern_text)
    route_names = re.findall(r"(?<!\?P)<(?:\w+:)?(\w+)>", pattern_text)
    return tuple(route_names + regex_names)


def walk(samples: dict | None = None) -> list[Route]:
    """Every route of the site, with a URL built from ``samples`` (kwarg name -> list of
    candidate values; tried in order until one reverses *and* resolves back to the route)."""
    samples = samples or {}
    defaults = {
        "app_label": ["games", "accounts", "auth", "ratings"],
        "object_id": ["1"],
        "content_type_id": ["1"],
        "uidb64": ["MQ"],
        "token": ["set-password", "abc-123"],
        "url": ["nowhere/"],
    }
    routes = []
    for entry, text, namespaces in _patterns(get_resolver()):
        names = _group_names(text)
        url = None
        if entry.name:
            full_name = ":".join(namespaces + (entry.name,))
            url = _build(full_name, names, entry.callback, samples, defaults)
        else:
            full_name = text
            url = _substitute(text, entry.callback, samples, defaults)
        routes.append(Route(full_name, text, entry.callback, url, names))
    return routes


def _candidates(name, samples, defaults):
    values = list(samples.get(name, [])) + list(defaults.get(name, []))
    return values or ["1", "x"]


def _substitute(text, callback, samples, defaults):
    """A URL for an unnamed route: fill its converters / named groups with sample values."""
    def value(match):
        return str(_candidates(match.group(1), samples, defaults)[0])

    path = re.sub(r"\(\?P<(\w+)>[^)]*\)", value, text)
    path = re.sub(r"<(?:\w+:)?(\w+)>", value, path)
    path = "/" + path.replace("^", "").replace("$", "")
    try:
        match = resolve(path)
    except Exception:
        return None
    return path if match.func is callback else None


def _build(full_name, names, callback, samples, defaults):
    def combos(remaining):
        if not remaining:
            yield {}
            return
        head, *rest = remaining
        for value in _candidates(head, samples, defaults):
            for tail in combos(rest):
                yield {head: value, **tail}

    for kwargs in combos(list(names)):
        try:
            url = reverse(full_name, kwargs=kwargs or None)
        except NoReverseMatch:
            continue
        try:
            match = resolve(url)
        except Exception:
            continue
        if match.func is callback or getattr(match.func, "__wrapped__", None) is callback:
            return url
        if match.func == callback:
            return url
    return None


__all__ = ["Route", "walk", "RegexPattern", "RoutePattern"]
