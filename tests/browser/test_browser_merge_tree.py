"""The merge-tree explorer in a real JupyterLab (notebook 06): it renders its first tree; a click
on a token button, or a typed token, draws that token's merges with their ranks in each column.
The server and browser plumbing is ``browser_lab.py``'s, the page fixture the notebook tests'.
"""

from __future__ import annotations

import pytest
from browser_lab import output_with, screenshot, scroll_to_top, widget_problems
from playwright.sync_api import expect
from test_browser_notebooks import page, run_in_lab  # noqa: F401 - page is a fixture

from bpe_workshop.files.offline import get_encoding

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]
expect.set_options(timeout=20_000)  # bounds a hang on a loaded machine; measures nothing

NOTEBOOK = "06_compare_with_tiktoken.ipynb"


def heading(name: str, token: bytes) -> str:
    n = len(get_encoding(name).encode_ordinary(token.decode()))
    return f"{name}: {n} token{'s' * (n != 1)}"


def test_browser_merge_tree_explorer(lab, page, tmp_path):  # noqa: F811 - the fixture
    run_in_lab(page, lab, NOTEBOOK)
    explorer = output_with(page, ".widget-toggle-buttons", ".bpe-node")
    expect(explorer, f"{NOTEBOOK} shows no merge-tree explorer").to_have_count(1)
    assert widget_problems(page) == []
    scroll_to_top(explorer)
    o200k, gpt2 = get_encoding("o200k_base"), get_encoding("gpt2")
    # it opens on " tokenizer": one o200k token, with its rank on top of its tree
    expect(explorer).to_contain_text(heading("o200k_base", b" tokenizer"))
    expect(explorer).to_contain_text(heading("gpt2", b" tokenizer"))
    expect(explorer.locator(".bpe-node .bpe-id").first).to_have_text(
        f"rank {o200k.encode_single_token(b' tokenizer')}")
    screenshot(page, tmp_path / "merge-tree-first.png", element=explorer)

    explorer.locator(".widget-toggle-buttons button", has_text="Kubernetes").click()
    expect(explorer).to_contain_text(heading("gpt2", b" Kubernetes"))
    top = explorer.locator(".bpe-column").first.locator(".bpe-node .bpe-id").first
    expect(top).to_have_text(f"rank {o200k.encode_single_token(b' Kubernetes')}")
    # a tree of n bytes has n - 1 merges and n leaves: 2n - 1 nodes, each with its rank
    nodes = explorer.locator(".bpe-column").first.locator(".bpe-node")
    expect(nodes).to_have_count(2 * len(b" Kubernetes") - 1)
    for token_id in gpt2.encode(" Kubernetes"):  # each gpt2 token's tree, its rank on top
        expect(explorer.locator(".bpe-column").nth(1)).to_contain_text(f"rank {token_id}")
    screenshot(page, tmp_path / "merge-tree-clicked.png", element=explorer)

    typed = explorer.locator(".widget-text input").nth(1)  # the "or type" box
    typed.fill(" hello")
    typed.press("Enter")
    expect(explorer).to_contain_text(f"rank {gpt2.encode_single_token(b' hello')}")
    assert widget_problems(page) == []
