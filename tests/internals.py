"""The private parts of optirules the tests reach into, imported in this one place: a
module split or a rename inside the package changes this file, not the tests."""

# ruff: noqa: F401

import optirules.learners._decision_list._cv_folds as learners_decision_list_cv_folds_module
import optirules.learners._decision_list._dense as learners_decision_list_dense_module
import optirules.learners._decision_list._grid as learners_decision_list_grid_module
import optirules.learners._decision_list._search as learners_decision_list_search_module
import optirules.learners._decision_list._shared as learners_decision_list_shared_module
import optirules.models._enumeration as models_enumeration_module
import optirules.models._pool_ip as models_pool_ip_module
import optirules.models._row_blocks as row_blocks_module
import optirules.models.masters._highs as models_masters_highs_module
import optirules.models.masters._highs_lp as models_masters_highs_lp_module
from optirules.data._binarizer import FeatureBinarizer, Literal, _short_between, format_value
from optirules.data._datasets import dataset_info, list_datasets, load_dataset, verify_dataset
from optirules.experiments._decision_list import CART, CV, DATASETS, DEFAULT, OSR, OSR_UNCOVERED
from optirules.experiments._decision_list import METHODS as decision_list_METHODS
from optirules.experiments._decision_list import format_table as decision_list_format_table
from optirules.experiments._decision_list import run as decision_list_run
from optirules.experiments._grid import TIMING_COLUMNS, load_grid_data
from optirules.experiments._parity import (
    CART_READINGS,
    LEARNERS,
    SEED_TABLE1,
    SEED_TABLE3,
    _learner,
    load_binarized,
    seed_distance,
)
from optirules.experiments._parity import SEED_TABLE2 as parity_SEED_TABLE2
from optirules.experiments._parity import format_table as parity_format_table
from optirules.experiments._parity import run as parity_run
from optirules.experiments._pruning import (
    ABLATIONS,
    ADABOOST_BY,
    SEED_TABLE4,
    load_numeric,
    noisy_diagonal,
    table4,
)
from optirules.experiments._pruning import METHODS as pruning_METHODS
from optirules.experiments._pruning import format_table as pruning_format_table
from optirules.experiments._pruning import run as pruning_run
from optirules.experiments._rules import (
    format_cycling,
    format_rules_demo,
    format_rules_table,
    load_rules_dataset,
    rules_folds,
    run_cycling_experiment,
    run_rules_benchmark,
    run_rules_demo,
    summarize_rules,
)
from optirules.experiments._rules import format_table as rules_format_table
from optirules.experiments._rules import run as rules_run
from optirules.experiments._smooth import (
    ALGORITHMS,
    distances,
    evaluate_decision_list,
    gavinsky_epsilon_distances,
    random_decision_list,
    sampling_spread,
)
from optirules.experiments._smooth import SEED_TABLE2 as smooth_SEED_TABLE2
from optirules.experiments._smooth import format_table as smooth_format_table
from optirules.experiments._smooth import run as smooth_run
from optirules.learners import ensemble_margins as diversity_ensemble_margins
from optirules.learners._bitset import pack_rows, popcount, unpack_rows
from optirules.learners._boosting._estimator import (
    BoostingClassifier,
    gavinsky_measure,
    hypothesis_text,
    madaboost_weights,
    smoothboost_measure,
)
from optirules.learners._boosting._sql import ROUNDS_PER_QUERY, float32_cut
from optirules.learners._checks import class_sample_weight, table_kind, validate_params
from optirules.learners._decision_list._encoding import encode_columns, weighted_inverted_cdf
from optirules.learners._decision_list._estimator import (
    AUTO_MIN_COVERAGE_DIVISOR,
    DecisionListClassifier,
    auto_min_coverage,
    best_conjunction,
    class_entropy,
    grow_decision_list,
    information_measure,
    laplace_accuracy,
    minimum_osr,
    significance_statistic,
)
from optirules.learners._decision_list._osr import minimum_osr_rows
from optirules.learners._decision_list._search import _Counter
from optirules.learners._dro._estimator import (
    DRORuleEnsembleClassifier,
    dro_max_degree,
    margin_loss,
)
from optirules.learners._dro._params import member_budgets
from optirules.learners._explain import EXPLAIN_COLUMNS
from optirules.learners._multiclass import MIN_SHARE
from optirules.learners._pruning._diversity import (
    ensemble_diversity,
    kappa_statistic,
    pairwise_disagreement,
    pairwise_kappa,
)
from optirules.learners._pruning._estimator import (
    DREPPruner,
    KappaPruner,
    QMMPruner,
    ensemble_hypothesis_space_size,
    member_predictions,
)
from optirules.learners._rule_set._input import default_target
from optirules.learners._rules import Clause, Rule, RuleSet
from optirules.learners._scores import PRIOR_STRENGTH, smoothed_distribution, unique_codes
from optirules.learners._sql import _real, quote_identifier, quote_string
from optirules.models import ensemble_margins as margins_ensemble_margins
from optirules.models._clauses import (
    clause_coverage,
    negative_loss,
    normalize_clause,
    priced_coverage,
    reduced_costs,
    ruleset_covers,
    weighted_hamming_loss,
)
from optirules.models._distributed_rows import WorkerPricer
from optirules.models._enumeration import _ROW_ARRAYS, complement_pairs
from optirules.models._margins import (
    bernoulli_kl,
    bernoulli_kl_inverse,
    emargin,
    tree_hypothesis_space_size,
)
from optirules.models._pool_ip import (
    _distinct_coverage,
    _greedy_rule_set,
    _improve_rule_set,
    _restricted_ip,
    master_objective,
)
from optirules.models._pricing import extension_sums, level_one_sums
from optirules.models._qmm import HIGHS_MAX_MEMBERS, SCIP_MAX_MEMBERS
from optirules.models._qmm_direct import DIRECT_SOLVERS
from optirules.models._qmm_linalg import complemented_rows, covariance_rank
from optirules.models._row_blocks import modal_price, row_block_sum, row_slices
from optirules.solvers._files import _objective_offset
from optirules.solvers._result import make_result
from optirules.solvers._solve import raised_by_a_solver
from optirules.weak._parity import Parity, ParityLearner, best_parity, parity_edge
