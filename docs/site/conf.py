"""Sphinx settings of the reading copy; ``bpe-workshop site OUT`` builds it (see its module).

myst-nb executes every notebook (``bpe_workshop.course.site`` stages them: solutions and
hidden teaching cells folded); the furo theme (0.34 MB wheel, system fonts, inline icons);
Sphinx's own search, which works offline. Each page gets Colab, Binder and download links from
the repository address in pyproject.toml, and nothing on a page comes from another host.
"""
from bpe_workshop.course.series import FIRST
from bpe_workshop.course.site import repository

REPOSITORY = repository()
SLUG = REPOSITORY.removeprefix("https://github.com/")  # owner/name
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"  # stored by execution, read by none

project = html_title = "Byte Pair Encoding, step by step"
extensions = ["myst_nb"]
html_theme = "furo"
html_static_path = ["_static"]
html_js_files = ["bpe-site.js"]  # steps a stepper's frames (bpe_workshop.render.style.frames_html)
html_css_files = ["bpe-site.css"]
myst_heading_anchors = 3  # links to the guide's sections
myst_enable_extensions = ["substitution"]
myst_substitutions = {"readme": f"[the README]({REPOSITORY}#readme)"}

nb_execution_mode = "force"
nb_execution_raise_on_error = True  # a notebook that fails stops the build
nb_execution_timeout = 1800  # seconds per cell: a bound on a hang, on a busy machine
nb_execution_excludepatterns = ["notebooks/solutions/*"]  # shown folded, not run
# Each widget's own HTML (written while the site runs the notebooks), never a widget view:
# so no require.js or widget manager from a CDN.
nb_mime_priority_overrides = [("html", "application/vnd.jupyter.widget-view+json", None)]
nb_ipywidgets_js = {}

LABELS = {"colab": "Open in Colab", "binder": "Launch on Binder", "download": "Download"}


def add_links(app, pagename, templatename, context, doctree):
    """The launch bar on top of a page, and the addresses in a widget's "needs a kernel" line.

    A notebook's page links to itself; the other pages to notebook 00 and the repository's zip.
    """
    own = pagename.startswith("notebooks/")
    notebook = f"{pagename}.ipynb" if own else f"notebooks/{FIRST}"
    beside = notebook.rpartition("/")[2]  # the site keeps each notebook beside its page
    links = {"colab": f"https://colab.research.google.com/github/{SLUG}/blob/main/{notebook}",
             "binder": f"https://mybinder.org/v2/gh/{SLUG}/HEAD?labpath={notebook}",
             "download": beside if own else f"{REPOSITORY}/archive/refs/heads/main.zip"}
    bar = " ".join(f'<a class="bpe-launch bpe-{key}" href="{links[key]}">{label}</a>'
                   for key, label in LABELS.items())
    body = context.get("body", "").replace("{colab}", links["colab"])
    context["body"] = f'<p class="bpe-launch-bar">{bar}</p>' + body.replace("{binder}",
                                                                            links["binder"])
    context["script_files"] = [js for js in context["script_files"]
                               if getattr(js, "attributes", {}).get("type") != WIDGET_STATE]


def setup(app):
    app.connect("html-page-context", add_links)
