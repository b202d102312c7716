"""games.table.templating: the table's Jinja2 prints exactly what markupsafe would."""
import markupsafe
from django.utils.safestring import mark_safe
from hypothesis import given
from hypothesis import strategies as st

from games.table.templating import escape, table_templates

printed = st.one_of(
    st.text(),
    st.text(alphabet="<>&'\"ab "),
    st.integers(),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=False),
    st.text().map(markupsafe.Markup),
    st.text().map(mark_safe),
)


@given(printed)
def test_escape_prints_what_markupsafe_prints(value):
    ours, theirs = escape(value), markupsafe.escape(value)
    assert isinstance(ours, str)
    assert str(ours) == str(theirs)


@given(st.text(alphabet="<>&'\"ab "))
def test_what_a_macro_or_a_set_block_prints_stays_escaped_once(text):
    # escape may return plain text: what a macro or a {% set %} block made is still safe
    # markup, printed as it is and not escaped a second time
    template = table_templates().from_string(
        "{% macro bold(x) %}<b>{{ x }}</b>{% endmacro %}"
        "{% set caption %}<i>{{ text }}</i>{% endset %}"
        "{{ bold(text) }}|{{ caption }}|{{ bold(caption) }}"
    )
    once = str(markupsafe.escape(text))
    assert template.render(text=text) == f"<b>{once}</b>|<i>{once}</i>|<b><i>{once}</i></b>"


def test_the_table_fragment_prints_through_it():
    template = table_templates().from_string("<p title='{{ name }}'>{{ name }} {{ n }} {{ safe }}</p>")
    assert template.root_render_func.__globals__["escape"] is escape
    html = template.render(name="<Tom & 'Jerry'>", n=3, safe=mark_safe("<i>ok</i>"))
    assert html == "<p title='&lt;Tom &amp; &#39;Jerry&#39;&gt;'>&lt;Tom &amp; &#39;Jerry&#39;&gt; 3 <i>ok</i></p>"


def test_the_templates_leave_out_their_indentation_and_block_lines():
    """Parts of the table are sent at every move: what only a reader of the template needs
    (indentation, the lines of block tags) is not sent."""
    env = table_templates()
    template = env.from_string("<ul>\n  {% for x in xs %}\n    <li>{{ x }}</li>\n  {% endfor %}\n</ul>\n<p>a\n   b</p>")
    assert template.render(xs=[1, 2]) == "<ul>\n<li>1</li>\n<li>2</li>\n</ul>\n<p>a\nb</p>"
