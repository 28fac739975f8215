"""scikit-learn estimators that compose the models.

``PRIOR_STRENGTH`` is the number of pseudo-rows of the Beta prior (the ``m`` of the
m-estimate) that smooths the class shares behind ``predict_proba`` of the rule learners.
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_EXPORTS = {
    "BooleanRuleSetClassifier": "._rule_set._estimator",
    "BooleanRuleSetCV": "._rule_set._cv",
    "DRORuleEnsembleClassifier": "._dro._estimator",
    "BoostingClassifier": "._boosting._estimator",
    "DecisionListClassifier": "._decision_list._estimator",
    "DecisionListCV": "._decision_list._cv",
    "QMMPruner": "._pruning._estimator",
    "KappaPruner": "._pruning._estimator",
    "DREPPruner": "._pruning._estimator",
    "ResampledAdaBoostClassifier": "._boosting._resampled_adaboost",
    "ensemble_diversity": "._pruning._diversity",
    "ensemble_margins": "._pruning._diversity",
    "member_predictions": "._pruning._estimator",
    "fairness_report": "._fairness",
    "FairnessReport": "._fairness",
    "PRIOR_STRENGTH": "._scores",
    "LEARNER_FORMULATIONS": "._solver_needs",
}
__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

# isort: off
if TYPE_CHECKING:  # the real names, for IDEs and type checkers (nothing imported at run time)
    from ._boosting._estimator import (
        BoostingClassifier as BoostingClassifier,
    )
    from ._decision_list._estimator import (
        DecisionListClassifier as DecisionListClassifier,
    )
    from ._decision_list._cv import (
        DecisionListCV as DecisionListCV,
    )
    from ._pruning._diversity import (
        ensemble_diversity as ensemble_diversity,
        ensemble_margins as ensemble_margins,
    )
    from ._dro._estimator import (
        DRORuleEnsembleClassifier as DRORuleEnsembleClassifier,
    )
    from ._fairness import (
        FairnessReport as FairnessReport,
        fairness_report as fairness_report,
    )
    from ._pruning._estimator import (
        DREPPruner as DREPPruner,
        KappaPruner as KappaPruner,
        QMMPruner as QMMPruner,
        member_predictions as member_predictions,
    )
    from ._boosting._resampled_adaboost import (
        ResampledAdaBoostClassifier as ResampledAdaBoostClassifier,
    )
    from ._rule_set._estimator import (
        BooleanRuleSetClassifier as BooleanRuleSetClassifier,
    )
    from ._rule_set._cv import (
        BooleanRuleSetCV as BooleanRuleSetCV,
    )
    from ._scores import (
        PRIOR_STRENGTH as PRIOR_STRENGTH,
    )
    from ._solver_needs import (
        LEARNER_FORMULATIONS as LEARNER_FORMULATIONS,
    )
# isort: on
