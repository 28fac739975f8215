"""Data layer: the FeatureBinarizer and the datasets shipped inside the package."""

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_EXPORTS = {
    "FeatureBinarizer": "._binarizer",
    "Literal": "._binarizer",
    "literal_conflicts": "._conflicts",
    "literals_conflict": "._conflicts",
    "load_dataset": "._datasets",
    "list_datasets": "._datasets",
    "dataset_info": "._datasets",
    "DatasetInfo": "._datasets",
    "SPLIT_FAMILIES": "._datasets",
    "make_planted_dnf": "._synthetic",
    "PLANTED_DNF": "._synthetic",
}
__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

# isort: off
if TYPE_CHECKING:  # the real names, for IDEs and type checkers (nothing imported at run time)
    from ._binarizer import (
        FeatureBinarizer as FeatureBinarizer,
        Literal as Literal,
    )
    from ._conflicts import (
        literal_conflicts as literal_conflicts,
        literals_conflict as literals_conflict,
    )
    from ._datasets import (
        SPLIT_FAMILIES as SPLIT_FAMILIES,
        DatasetInfo as DatasetInfo,
        dataset_info as dataset_info,
        list_datasets as list_datasets,
        load_dataset as load_dataset,
    )
    from ._synthetic import (
        PLANTED_DNF as PLANTED_DNF,
        make_planted_dnf as make_planted_dnf,
    )
# isort: on
