"""The formulations: each a declarative Pyomo or CVXPY model with a fast path where one exists."""

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_EXPORTS = {
    "OptModel": "._base",
    "RuleMasterModel": ".masters",
    "FairnessRows": ".masters",
    "RulePricingModel": "._pricing",
    "beam_search_pricing": "._pricing",
    "WorstCasePmfModel": "._worst_case",
    "worst_case_pmf": "._worst_case",
    "phi_divergence": "._worst_case",
    "HighsRuleMaster": ".masters",
    "MergedHighsRuleMaster": ".masters",
    "DualHighsRuleMaster": ".masters",
    "PersistentRuleMaster": ".masters",
    "RebuildRuleMaster": ".masters",
    "RestrictedMaster": ".masters",
    "MasterIP": ".masters",
    "aggregate_rows": ".masters",
    "restricted_master": ".masters",
    "split_solver": "._column_generation",
    "branch_and_bound_master": "._branch_and_bound",
    "reduced_costs": "._clauses",
    "PricingDuals": "._clauses",
    "all_clauses": "._clauses",
    "n_candidate_clauses": "._clauses",
    "SparseCombinationModel": "._sparse_combination",
    "QMMModel": "._qmm",
    "Clause": "._clauses",
    "clause_coverage": "._clauses",
    "complexity_costs": "._clauses",
    "row_prices": "._clauses",
    "QMMFallbackWarning": "._qmm",
    "QMMSolveOptions": "._qmm",
    "as_pm1_matrix": "._margins",
    "column_generation": "._column_generation",
    "solve_column_generation": "._column_generation",
    "solve_penalty_path": "._penalty_path",
    "RuleSetProblem": "._problem",
    "ColumnGenerationOptions": "._problem",
    "ColumnGenerationResult": "._column_generation",
    "enumerate_master": "._pool_ip",
    "master_objective": "._pool_ip",
    "prune_redundant": "._pool_ip",
    "resolve_max_degree": "._column_generation",
    "enumerate_pricing": "._enumeration",
    "EnumerationPricer": "._enumeration",
    "check_backend": "._enumeration",
    "DistributedRows": "._distributed_rows",
    "distributed_column_generation": "._distributed_rows",
    "FORMULATIONS": "._formulations",
    "formulation": "._formulations",
    "ensemble_margins": "._margins",
}
_MODULES = {"options": ".options"}
__all__ = sorted([*_EXPORTS, *_MODULES])
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, _MODULES)

# isort: off
if TYPE_CHECKING:  # the real names, for IDEs and type checkers (nothing imported at run time)
    from . import options as options
    from ._base import (
        OptModel as OptModel,
    )
    from ._branch_and_bound import (
        branch_and_bound_master as branch_and_bound_master,
    )
    from ._clauses import (
        Clause as Clause,
        PricingDuals as PricingDuals,
        all_clauses as all_clauses,
        clause_coverage as clause_coverage,
        complexity_costs as complexity_costs,
        n_candidate_clauses as n_candidate_clauses,
        reduced_costs as reduced_costs,
        row_prices as row_prices,
    )
    from ._column_generation import (
        ColumnGenerationResult as ColumnGenerationResult,
        column_generation as column_generation,
        resolve_max_degree as resolve_max_degree,
        solve_column_generation as solve_column_generation,
        split_solver as split_solver,
    )
    from ._distributed_rows import (
        DistributedRows as DistributedRows,
        distributed_column_generation as distributed_column_generation,
    )
    from ._enumeration import (
        EnumerationPricer as EnumerationPricer,
        check_backend as check_backend,
        enumerate_pricing as enumerate_pricing,
    )
    from ._formulations import (
        FORMULATIONS as FORMULATIONS,
        formulation as formulation,
    )
    from ._margins import (
        as_pm1_matrix as as_pm1_matrix,
        ensemble_margins as ensemble_margins,
    )
    from ._penalty_path import (
        solve_penalty_path as solve_penalty_path,
    )
    from ._pool_ip import (
        enumerate_master as enumerate_master,
        master_objective as master_objective,
        prune_redundant as prune_redundant,
    )
    from ._pricing import (
        RulePricingModel as RulePricingModel,
        beam_search_pricing as beam_search_pricing,
    )
    from ._problem import (
        ColumnGenerationOptions as ColumnGenerationOptions,
        RuleSetProblem as RuleSetProblem,
    )
    from ._qmm import (
        QMMFallbackWarning as QMMFallbackWarning,
        QMMModel as QMMModel,
        QMMSolveOptions as QMMSolveOptions,
    )
    from ._sparse_combination import (
        SparseCombinationModel as SparseCombinationModel,
    )
    from ._worst_case import (
        WorstCasePmfModel as WorstCasePmfModel,
        phi_divergence as phi_divergence,
        worst_case_pmf as worst_case_pmf,
    )
    from .masters import (
        DualHighsRuleMaster as DualHighsRuleMaster,
        FairnessRows as FairnessRows,
        HighsRuleMaster as HighsRuleMaster,
        MasterIP as MasterIP,
        MergedHighsRuleMaster as MergedHighsRuleMaster,
        PersistentRuleMaster as PersistentRuleMaster,
        RebuildRuleMaster as RebuildRuleMaster,
        RestrictedMaster as RestrictedMaster,
        RuleMasterModel as RuleMasterModel,
        aggregate_rows as aggregate_rows,
        restricted_master as restricted_master,
    )
# isort: on
