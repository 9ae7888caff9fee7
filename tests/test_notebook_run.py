"""Reading a notebook's code cells (running them is tested through the CLI, in a real kernel)."""
import json

import pytest

from nb_autograd.notebook_run import Cell, NotANotebook, parse_notebook


def test_code_cells_keep_their_index_in_the_file_and_their_id():
    nb = {"nbformat": 4, "cells": [{"cell_type": "markdown", "source": "# hi"},
                                   {"cell_type": "code", "id": "abc", "source": ["x = 1\n", "y = 2"]},
                                   {"cell_type": "code", "source": "z = 3"}]}
    assert parse_notebook(json.dumps(nb), "a.ipynb") == (Cell(1, "abc", "x = 1\ny = 2"), Cell(2, "cell-2", "z = 3"))


@pytest.mark.parametrize("raw, says", [("{", "invalid JSON"), ("[1]", "no list of cells"),
                                       ('{"nbformat": 3, "worksheets": []}', "only nbformat 4"),
                                       ('{"cells": [1]}', "cell 0 is not an object")])
def test_what_is_not_a_notebook_is_said_in_one_line(raw, says):
    with pytest.raises(NotANotebook, match=says) as info:
        parse_notebook(raw, "b.ipynb")
    assert "\n" not in str(info.value) and str(info.value).startswith("b.ipynb: not a notebook")
