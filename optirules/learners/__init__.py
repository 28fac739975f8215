"""scikit-learn estimators that compose the models."""

from .._lazy import lazy_exports

_EXPORTS = {
    "BooleanRuleSetClassifier": "._rule_set",
    "BooleanRuleSetCV": "._rule_set_cv",
    "DRORuleEnsembleClassifier": "._dro_ensemble",
    "BoostingClassifier": "._boosting",
    "DecisionListClassifier": "._decision_list",
    "DecisionListCV": "._decision_list_cv",
    "QMMPruner": "._pruning",
    "KappaPruner": "._pruning",
    "DREPPruner": "._pruning",
    "ResampledAdaBoostClassifier": "._resampled_adaboost",
    "ensemble_diversity": "._diversity",
    "ensemble_margins": "._diversity",
    "member_predictions": "._pruning",
    "fairness_report": "._fairness",
    "FairnessReport": "._fairness",
}
__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
