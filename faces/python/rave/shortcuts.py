"""rave.shortcuts: the learner audit of answer sets (`rave check --shortcuts`, docs/answer-sets.md#the-learner-audit).

Can the answer be found without reasoning? Per configuration, two views of every problem are learnt with
cross-validation by problem (the problems of one fold are never seen while training for it):

* blind: the 8 candidates alone, the context never read;
* bag: the candidates plus the context as a bag of values (no rows, no columns, no panel order).

Each view is learnt by two learners of scikit-learn: a conditional logit (one linear score per candidate,
softmax over the 8 of a problem, fitted by L-BFGS: scipy.optimize) and gradient boosting
(HistGradientBoostingClassifier on one row per candidate, with each feature also given relative to the
problem's mean, the candidate of highest probability picked). The features are engine/audit_features.hpp's,
read from the files by the C++ core (rave._rave.shortcut_features). Accuracy counts ties as 1/k; chance is
12.5%; intervals are Wilson's 95%.

    import rave.shortcuts
    result = rave.shortcuts.audit(["data/iraven"], threads=2)
    print(rave.shortcuts.table(result))
    result["all"]["blind"]["gbm"]            # {'hits': 871.5, 'problems': 7000, 'accuracy': ..., 'interval': (...)}
"""
import argparse
import math
import sys

import numpy as np

from rave import _rave

LEARNERS = ("logit", "gbm")
FOLDS = 5
VIEWS = ("blind", "bag")
CHANCE = 1.0 / 8


def _require_sklearn():
    try:
        import sklearn  # noqa: F401
        import scipy  # noqa: F401
    except ImportError as e:  # pragma: no cover - the pins install both
        raise ImportError("the learner audit needs scikit-learn and scipy (requirements.txt; "
                          "scripts/setup.sh installs them)") from e


def features(paths, threads=1):
    """The features of every problem file under `paths` (a path or a list): rave._rave.shortcut_features."""
    if isinstance(paths, (str, bytes)) or hasattr(paths, "__fspath__"):
        paths = [paths]
    return _rave.shortcut_features([str(p) for p in paths], threads)


def wilson(hits, n, z=1.96):
    """Wilson's 95% interval of a proportion, in [0, 1]."""
    if n == 0:
        return (0.0, 1.0)
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _standardize(train, test):
    mean = train.reshape(-1, train.shape[-1]).mean(axis=0)
    std = train.reshape(-1, train.shape[-1]).std(axis=0)
    std[std < 1e-9] = 1.0
    return (train - mean) / std, (test - mean) / std


def _conditional_logit(train_x, train_y, test_x, penalty=1.0):
    """Scores of a conditional logit: w fitted on softmax over each problem's 8 candidates."""
    from scipy.optimize import minimize
    from scipy.special import logsumexp
    from threadpoolctl import threadpool_limits
    train_x, test_x = _standardize(train_x.astype(np.float64), test_x.astype(np.float64))
    n, k, f = train_x.shape
    flat = train_x.reshape(n * k, f)
    chosen = np.zeros((n, k))
    chosen[np.arange(n), train_y] = 1.0

    def loss(w):
        s = (flat @ w).reshape(n, k)
        lse = logsumexp(s, axis=1, keepdims=True)
        p = np.exp(s - lse)
        value = -((s - lse) * chosen).sum() / n + penalty * 0.5 * w @ w / n
        grad = flat.T @ (p - chosen).reshape(-1) / n + penalty * w / n
        return value, grad

    # One BLAS thread: the products are small (8 x problems rows), and a pool of BLAS threads spinning
    # on them costs more than it saves on a shared machine (docs/answer-sets.md#the-learner-audit).
    with threadpool_limits(limits=1, user_api="blas"):
        w = minimize(loss, np.zeros(f), jac=True, method="L-BFGS-B", options={"maxiter": 150}).x
    return test_x @ w


def _with_relative(x):
    """Each feature also relative to its problem's mean over the 8 candidates."""
    return np.concatenate([x, x - x.mean(axis=1, keepdims=True)], axis=2)


def _gradient_boosting(train_x, train_y, test_x, seed):
    from sklearn.ensemble import HistGradientBoostingClassifier
    train_x, test_x = _with_relative(train_x), _with_relative(test_x)
    n, k, f = train_x.shape
    labels = np.zeros((n, k), dtype=np.int8)
    labels[np.arange(n), train_y] = 1
    model = HistGradientBoostingClassifier(max_iter=60, learning_rate=0.15, max_leaf_nodes=15, max_bins=64,
                                           min_samples_leaf=40, l2_regularization=1.0,
                                           early_stopping=False, random_state=seed)
    model.fit(train_x.reshape(n * k, f), labels.reshape(-1))
    return model.predict_proba(test_x.reshape(-1, f))[:, 1].reshape(len(test_x), k)


def _credit(scores, target):
    """1/k when the target is among the k candidates of highest score, else 0 (per problem)."""
    best = scores.max(axis=1, keepdims=True)
    top = np.isclose(scores, best, rtol=1e-9, atol=1e-12)
    hit = top[np.arange(len(target)), target]
    return np.where(hit, 1.0 / top.sum(axis=1), 0.0)


def _scores(learner, train_x, train_y, test_x, seed):
    if learner == "logit":
        return _conditional_logit(train_x, train_y, test_x)
    return _gradient_boosting(train_x, train_y, test_x, seed)


def _out_of_fold(x, y, learner, folds, seed):
    """Each problem's credit from a model that never saw it (folds split by problem)."""
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(y))
    credit = np.zeros(len(y))
    for fold in range(folds):
        test = order[fold::folds]
        train = np.setdiff1d(order, test)
        if len(train) < 8 or len(test) == 0:
            credit[test] = CHANCE
            continue
        credit[test] = _credit(_scores(learner, x[train], y[train], x[test], seed + fold), y[test])
    return credit


def _cell(hits, n):
    low, high = wilson(hits, n)
    return {"hits": float(hits), "problems": int(n), "accuracy": hits / n if n else float("nan"),
            "interval": (low, high)}


def _views(data, rows):
    blind = data["blind"][rows]
    return {"blind": blind, "bag": np.concatenate([blind, data["bag"][rows]], axis=2)}


def _known(data):
    return (data["target"] >= 0) & np.array([e == "" for e in data["errors"]], dtype=bool)


def audit(paths, threads=1, folds=FOLDS, seed=0, learners=LEARNERS, solver=None, train=None):
    """The learner audit of every problem file under `paths`, per configuration and over all.

    `solver` (optional): {configuration folder name: (hits, problems)}, shown beside the learners.
    `train` (optional): folders or files to learn from instead; then every audited problem is scored by
    models fitted on those alone (per configuration), e.g. rave's problems to read the original
    generators' few reference problems, and `folds` is not used.
    Returns {"configs": {name: {"problems", "solver", "blind": {learner: cell}, "bag": {...}}}, "all": {...},
    "files", "credit": {(view, learner): per-file credit (nan: unreadable or no target)}}; a cell is
    {"hits", "problems", "accuracy", "interval"}."""
    _require_sklearn()
    for learner in learners:
        if learner not in LEARNERS:
            raise ValueError(f"unknown learner '{learner}'; known: {', '.join(LEARNERS)}")
    if folds < 2:
        raise ValueError(f"folds must be at least 2, not {folds}")
    data = features(paths, threads)
    known = _known(data)
    learn = features(train, threads) if train else None
    credit = {(v, ln): np.full(len(data["files"]), np.nan) for v in VIEWS for ln in learners}
    result = {"configs": {}, "files": data["files"], "credit": credit, "folds": folds,
              "train": [str(p) for p in ([train] if isinstance(train, (str, bytes)) or hasattr(train, "__fspath__")
                                         else train or [])]}
    totals = {v: {ln: [0.0, 0] for ln in learners} for v in VIEWS}
    solver_total = [0, 0]
    for index, name in enumerate(_rave.CONFIGS):
        rows = np.flatnonzero(known & (data["config"] == index))
        if len(rows) == 0:
            continue
        y = data["target"][rows]
        views = _views(data, rows)
        if learn is not None:
            train_rows = np.flatnonzero(_known(learn) & (learn["config"] == index))
            if len(train_rows) < 8:
                raise ValueError(f"train: too few problems of {name} to learn from ({len(train_rows)})")
            train_views, train_y = _views(learn, train_rows), learn["target"][train_rows]
        entry = {"problems": int(len(rows))}
        for v in VIEWS:
            entry[v] = {}
            for ln in learners:
                if learn is not None:
                    c = _credit(_scores(ln, train_views[v], train_y, views[v], seed), y)
                else:
                    c = _out_of_fold(views[v], y, ln, folds, seed)
                credit[(v, ln)][rows] = c
                entry[v][ln] = _cell(c.sum(), len(rows))
                totals[v][ln][0] += c.sum()
                totals[v][ln][1] += len(rows)
        if solver and name in solver:
            entry["solver"] = _cell(*solver[name])
            solver_total[0] += solver[name][0]
            solver_total[1] += solver[name][1]
        result["configs"][name] = entry
    result["all"] = {"problems": sum(e["problems"] for e in result["configs"].values())}
    for v in VIEWS:
        result["all"][v] = {ln: _cell(*totals[v][ln]) for ln in learners}
    if solver_total[1]:
        result["all"]["solver"] = _cell(*solver_total)
    return result


def table(result):
    """The audit as the text `rave check --shortcuts` prints: one line per configuration and one for all."""
    learners = [ln for ln in LEARNERS if ln in next(iter(result["configs"].values()), {}).get("blind", {})]
    columns = [(v, ln) for v in VIEWS for ln in learners]
    head = f"{'':22} {'problems':>8} {'solver %':>8}" + "".join(f" {v + ' ' + ln + ' % [95% CI]':>22}"
                                                            for v, ln in columns)
    how = (f"learnt from {', '.join(result['train'])}" if result.get("train")
           else f"cross-validated by problem ({result['folds']} folds)")
    lines = [f"shortcut learners: {how}, chance 12.5% (docs/answer-sets.md#the-learner-audit)", head]

    def line(name, entry):
        solver = entry.get("solver")
        text = f"{name:22} {entry['problems']:>8} " + (f"{100 * solver['accuracy']:>8.1f}" if solver else f"{'-':>8}")
        for v, ln in columns:
            c = entry[v][ln]
            text += f" {100 * c['accuracy']:>6.1f} [{100 * c['interval'][0]:4.1f}, {100 * c['interval'][1]:4.1f}]"
        return text

    paper = dict(zip(_rave.CONFIGS, _rave.PAPER_NAMES))
    for name, entry in result["configs"].items():
        lines.append(line(paper[name], entry))
    if result["configs"]:
        lines.append(line("all", result["all"]))
    return "\n".join(lines)


def _solver_arg(text):
    """"center_single=998/1000,distribute_four=..." -> {name: (hits, problems)}."""
    out = {}
    for item in filter(None, text.split(",")):
        name, _, counts = item.partition("=")
        hits, _, n = counts.partition("/")
        out[name] = (int(hits), int(n))
    return out


def main(argv):
    """`python -m rave shortcuts PATH... [-j N] [--folds K] [--seed S] [--solver SPEC]`."""
    parser = argparse.ArgumentParser(prog="rave shortcuts", description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", help="dataset folders or problem files")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="threads reading the files")
    parser.add_argument("--folds", type=int, default=FOLDS, help="cross-validation folds (default %(default)s)")
    parser.add_argument("--seed", type=int, default=0, help="the folds' and learners' seed")
    parser.add_argument("--learners", default=",".join(LEARNERS),
                        help="comma-separated: logit (conditional logit), gbm (gradient boosting); default both")
    parser.add_argument("--train", action="append", help="learn from these problems instead (repeatable); "
                                                         "every audited problem is then scored, no folds")
    parser.add_argument("--solver", default="", help=argparse.SUPPRESS)  # rave check's counts
    o = parser.parse_args(argv)
    try:
        result = audit(o.paths, threads=o.jobs, folds=o.folds, seed=o.seed, solver=_solver_arg(o.solver),
                       train=o.train, learners=tuple(filter(None, o.learners.split(","))))
    except (ValueError, OSError, ImportError) as e:
        sys.exit(f"rave: error: {e}")
    if not result["configs"]:
        sys.exit("rave: error: no problem with a known answer under the given paths")
    print(table(result))
