"""Data layer: the FeatureBinarizer and the datasets shipped inside the package."""

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
