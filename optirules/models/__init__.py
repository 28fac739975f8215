"""The formulations: each a declarative Pyomo or CVXPY model with a fast path where one exists."""

from .._lazy import lazy_exports

_EXPORTS = {
    "OptModel": "._base",
    "RuleMasterModel": "._rule_master",
    "RulePricingModel": "._pricing",
    "beam_search_pricing": "._pricing",
    "WorstCasePmfModel": "._worst_case",
    "worst_case_pmf": "._worst_case",
    "phi_divergence": "._worst_case",
    "HighsRuleMaster": "._rule_master",
    "PersistentRuleMaster": "._rule_master",
    "RebuildRuleMaster": "._rule_master",
    "RestrictedMaster": "._rule_master",
    "MasterIP": "._rule_master",
    "restricted_master": "._column_generation",
    "split_solver": "._column_generation",
    "MASTERS": "._column_generation",
    "reduced_costs": "._clauses",
    "all_clauses": "._clauses",
    "SparseCombinationModel": "._sparse_combination",
    "QMMModel": "._qmm",
    "Clause": "._clauses",
    "clause_coverage": "._clauses",
    "complexity_costs": "._clauses",
    "row_prices": "._clauses",
    "QMMFallbackWarning": "._qmm",
    "as_pm1_matrix": "._margins",
    "column_generation": "._column_generation",
    "ColumnGenerationResult": "._column_generation",
    "enumerate_master": "._column_generation",
    "master_objective": "._column_generation",
    "resolve_max_degree": "._column_generation",
    "PRICING": "._column_generation",
    "EXACT_METHODS": "._column_generation",
    "enumerate_pricing": "._enumeration",
    "EnumerationPricer": "._enumeration",
    "check_backend": "._enumeration",
    "margins": "._margins",
}
__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
