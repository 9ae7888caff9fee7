"""The block tree and what is open: every node shown exactly once, at most FANOUT children
per block, the failing node visible at start, expansion bounded."""
from __future__ import annotations

from collections import Counter

import pytest

from nb_autograd.view.collapse import FANOUT, BlockTree, failing_path
from nb_autograd.view.expansion import ALL_LIMIT, START_LIMIT, Expansion

from .graphs import chain_graph, lattice_graph


def all_visible_nodes(tree: BlockTree, expansion: Expansion) -> Counter:
    return Counter(nid for key in expansion.visible() for nid in tree.node_ids(key))


@pytest.mark.parametrize("graph", [chain_graph(7, failed=2), chain_graph(500, failed=3),
                                   chain_graph(3000, failed=10, provenance=True), lattice_graph(600)],
                         ids=["tiny", "chain", "provenance", "lattice"])
def test_every_node_once_and_fanout_bounded(graph):
    tree = BlockTree(graph)
    expansion = Expansion(tree)
    expansion.start()
    assert all_visible_nodes(tree, expansion) == Counter(n.id for n in graph.nodes)
    assert len(tree.top) <= FANOUT
    assert all(len(b.children) <= FANOUT for b in tree.blocks.values())
    assert len(expansion.visible()) <= START_LIMIT + FANOUT * 4
    owner = expansion.owners(expansion.visible())
    assert all(a != b for a, b, _ in expansion.edges(owner))


def test_small_graph_opens_whole():
    graph = chain_graph(7, failed=2)
    expansion = Expansion(BlockTree(graph))
    expansion.start()
    assert sorted(k for k in expansion.visible()) == sorted(n.id for n in graph.nodes)


def test_large_graph_starts_collapsed_with_failing_node_visible():
    graph = lattice_graph(600)
    tree = BlockTree(graph)
    expansion = Expansion(tree)
    expansion.start()
    visible = expansion.visible()
    assert 1 in visible  # graph.failed_at
    assert any(isinstance(k, str) for k in visible)
    assert len(visible) < len(graph.nodes) / 10


def test_provenance_blocks_are_line_and_iteration():
    graph = chain_graph(3000, failed=10, provenance=True, per_iter=5)
    tree = BlockTree(graph)
    lines = [b for b in tree.blocks.values() if b.kind == "line"]
    assert lines and all(b.facts["iters"][0] == b.facts["iters"][1] == b.facts["iteration"] for b in lines)
    assert {b.facts["line"] for b in lines} == {10, 11}
    assert any(b.kind == "iteration" for b in tree.blocks.values())


def test_chains_are_folded_without_provenance():
    tree = BlockTree(chain_graph(20))
    chains = [b for b in tree.blocks.values() if b.kind == "chain"]
    assert len(chains) == 1 and chains[0].size == 20
    assert chains[0].facts["first_op"] == "Op1Backward0"  # node 19, the newest


def test_expand_adds_at_most_fanout_and_collapse_restores():
    tree = BlockTree(lattice_graph(600))
    expansion = Expansion(tree)
    expansion.start()
    before = expansion.visible()
    block = next(k for k in before if isinstance(k, str))
    assert expansion.expand(block)
    after = expansion.visible()
    assert len(before) < len(after) <= len(before) + FANOUT - 1
    child = tree.blocks[block].children[0]
    assert expansion.collapse(child)
    assert expansion.visible() == before
    assert not expansion.expand(12345)  # a node is not a block


def test_expand_all_stays_under_limit():
    tree = BlockTree(chain_graph(20000, failed=5, provenance=True, per_iter=7))
    expansion = Expansion(tree)
    expansion.start()
    expansion.fill(ALL_LIMIT)
    assert START_LIMIT < len(expansion.visible()) <= ALL_LIMIT


def test_failing_path_runs_from_root_to_failed_node():
    graph = chain_graph(10, failed=4)
    assert failing_path(graph) == set(range(4, 10))
    tree = BlockTree(graph)
    expansion = Expansion(tree)
    expansion.start()
    on_path = [(a, b) for a, b, p in expansion.edges(expansion.owners(expansion.visible())) if p]
    assert (5, 4) in on_path and (4, 3) not in on_path


def test_expanding_past_the_hard_limit_is_refused():
    from nb_autograd.view.expansion import HARD_LIMIT

    tree = BlockTree(chain_graph(40000, failed=5, provenance=True, per_iter=7))
    expansion = Expansion(tree)
    expansion.start()
    refused = False
    for _ in range(1000):
        blocks = sorted((k for k in expansion.visible() if isinstance(k, str)),
                        key=lambda k: -len(tree.blocks[k].children))
        if not blocks or not expansion.expand(blocks[0]):
            refused = bool(blocks)
            break
    assert refused and len(expansion.visible()) <= HARD_LIMIT
