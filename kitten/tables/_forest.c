/* Decision forests of kitten/tables/model.py evaluated in C (optional; the Python
 * Model.proba gives the same numbers, operation for operation, and is used when this
 * module is not built).
 *
 *   pack(left, right, feature, threshold, values, roots, n_classes) -> capsule
 *       the trees of a forest laid end to end, as typed arrays (array.array: "i" for
 *       left, right, feature and roots, "d" for threshold and values): node arrays
 *       (left == -1 at a leaf, child indexes absolute), the class shares of every node
 *       (n_classes each; zeros at inner nodes), the index of each tree's root.
 *   pack(left, right, feature, threshold, shares, starts, n_classes, leaves) -> capsule
 *       the same from the model file's layout (kitten/tables/model.py): the trees' node
 *       arrays end to end, each tree's child indexes counted from its first node, whose
 *       index is in ``starts`` (increasing; a tree's root is its first node);
 *       ``shares`` the distinct class-share vectors (n_classes each) and ``leaves`` ("i")
 *       the index in ``shares`` of each leaf's vector, the leaves in node order. They
 *       are copied as ``Node``s of 16 bytes, each tree in preorder (a left child next to
 *       its parent) and only the leaves' shares kept: a step down a tree reads one
 *       cache line, not four arrays; the same comparisons and the same sums.
 *       A node reached from two roots is copied into each tree.
 *   proba(capsule, rows) -> [[p_class, ...], ...]
 *       for each feature vector: the mean over the trees of the shares at the leaf
 *       reached (left when x[feature] <= threshold), summed tree by tree in order and
 *       divided by the number of trees, as Model.proba does; one tree: its shares.
 *   predict(capsule, rows) -> [(class index, probability), ...]
 *       for each feature vector the first class of the highest probability of proba.
 *   predict_columns(capsule, n, columns) -> [(class index, probability), ...]
 *       predict of n feature vectors given by feature (a big table's cells: no list per
 *       vector), ``columns`` holding for each feature, in the order of the vectors:
 *       a number (the same in every vector), an array('d') of n values, (values, index)
 *       (vector r's value is values[index[r]]: a value of the cell's row, column or
 *       text), or (values, index, index2, stride) (values[index[r] * stride +
 *       index2[r]]: of its row and text type); values are array('d') or lists of
 *       numbers, indexes array('i') or lists of ints (a list is read once into a
 *       buffer: what array() would do item by item, several times slower).
 *       kitten/tables/model.py's expand_columns makes the same vectors.
 *   predict_columns(capsule, n, columns, True) -> [class index, ...]
 *       the class indexes alone, each vector's trees walked only until its class is
 *       settled (forest_labels): the same classes.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* One node of the packed forest (16 bytes: a node and the next are read together).
 * The nodes of each tree are laid out in preorder, so an inner node's left child is the
 * node after it; ``next`` is the index of its right child. A leaf has feature -1 and
 * ``next`` the index of its class shares in ``leaves``. */
typedef struct {
    double threshold;
    int feature, next;
} Node;

typedef struct {
    Py_ssize_t n_nodes, n_trees, n_classes, n_features;
    Node *nodes;
    int *roots;
    double *leaves;  /* n_classes shares per leaf */
} Forest;

static void forest_free(PyObject *capsule) {
    Forest *f = PyCapsule_GetPointer(capsule, "kitten.forest");
    if (!f) return;
    free(f->nodes); free(f->roots); free(f->leaves); free(f);
}

/* A typed array (array.array of ``format``, items of ``size`` bytes) of n items copied
 * to out; -1 on error. */
static int from_buffer(PyObject *seq, Py_ssize_t n, void *out, const char *format, Py_ssize_t size) {
    Py_buffer view;
    if (PyObject_GetBuffer(seq, &view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) return -1;
    int ok = view.itemsize == size && view.format && strcmp(view.format, format) == 0 && view.len == n * size;
    if (ok) memcpy(out, view.buf, (size_t)view.len);
    PyBuffer_Release(&view);
    if (!ok) {
        PyErr_Format(PyExc_ValueError, "node arrays must be array('%s') of the same length", format);
        return -1;
    }
    return 0;
}

static int ints(PyObject *seq, Py_ssize_t n, int *out) { return from_buffer(seq, n, out, "i", sizeof(int)); }

static int doubles(PyObject *seq, Py_ssize_t n, double *out) {
    return from_buffer(seq, n, out, "d", sizeof(double));
}

/* The forest of the node arrays (n nodes, child indexes absolute, t roots) laid out as
 * ``Node``s in ``f``: each tree from its root in preorder (depth first, left before
 * right), leaves' shares copied in the order the leaves are placed; -1 with an error set
 * when a node points outside the arrays or the trees hold more than n nodes (a cycle).
 * ``share_of``: the index of each node's class shares in ``values`` (NULL: the node's own). */
static int lay_out(Forest *f, const int *left, const int *right, const int *feature,
                   const double *threshold, const double *values, const int *share_of, Py_ssize_t n,
                   Py_ssize_t t) {
    Py_ssize_t k = f->n_classes, placed = 0, leaves = 0, top = 0, capacity = n;
    int max_feature = -1;
    /* nodes to place: (original index, placed node whose right child it is or -1) */
    int *stack = malloc(2 * (n + 1) * sizeof(int));
    if (!stack) { PyErr_NoMemory(); return -1; }
    for (Py_ssize_t i = 0; i < t; i++) {
        if (f->roots[i] < 0 || f->roots[i] >= n) {
            PyErr_SetString(PyExc_ValueError, "a root outside the forest");
            goto fail;
        }
        stack[0] = f->roots[i]; stack[1] = -1; top = 1;
        Py_ssize_t first = placed;
        f->roots[i] = (int)placed;
        while (top) {
            top--;
            int node = stack[2 * top], parent = stack[2 * top + 1];
            if (placed - first >= n) {  /* more nodes than there are: a cycle */
                PyErr_SetString(PyExc_ValueError, "a node points outside the forest");
                goto fail;
            }
            if (placed == capacity) {  /* trees sharing nodes: each is laid out whole */
                Node *more = realloc(f->nodes, 2 * capacity * sizeof(Node));
                if (more) f->nodes = more;
                double *shares = more ? realloc(f->leaves, 2 * capacity * k * sizeof(double)) : NULL;
                if (!shares) { PyErr_NoMemory(); goto fail; }
                f->leaves = shares;
                capacity *= 2;
            }
            Node *out = f->nodes + placed;
            if (parent >= 0) f->nodes[parent].next = (int)placed;
            out->threshold = threshold[node];
            if (left[node] == -1) {
                out->feature = -1;
                out->next = (int)leaves;
                memcpy(f->leaves + leaves * k, values + (Py_ssize_t)(share_of ? share_of[node] : node) * k,
                       k * sizeof(double));
                leaves++;
                placed++;
                continue;
            }
            if (left[node] < 0 || left[node] >= n || right[node] < 0 || right[node] >= n || feature[node] < 0) {
                PyErr_SetString(PyExc_ValueError, "a node points outside the forest");
                goto fail;
            }
            if (feature[node] > max_feature) max_feature = feature[node];
            out->feature = feature[node];
            out->next = -1;
            /* the right child is placed after the left's subtree, then patched in */
            stack[2 * top] = right[node]; stack[2 * top + 1] = (int)placed; top++;
            stack[2 * top] = left[node]; stack[2 * top + 1] = -1; top++;
            placed++;
        }
    }
    free(stack);
    f->n_nodes = placed;
    f->n_features = max_feature + 1;
    return 0;
fail:
    free(stack);
    return -1;
}

/* The model file's layout made absolute (see ``pack``): each tree's child indexes plus
 * its start, and for each leaf the index of its vector among the ``n_shares`` of
 * ``shares``, in ``share_of``; -1 with an error set when the arrays do not agree. */
static int from_starts(int *left, int *right, const int *starts, Py_ssize_t n, Py_ssize_t t,
                       const int *leaves, Py_ssize_t n_leaves, Py_ssize_t n_shares, int *share_of) {
    Py_ssize_t leaf = 0;
    for (Py_ssize_t i = 0; i < t; i++) {
        Py_ssize_t base = starts[i], end = i + 1 < t ? starts[i + 1] : n;
        if (base < 0 || base >= end || end > n || (i == 0 && base != 0)) {
            PyErr_SetString(PyExc_ValueError, "a tree's start outside the forest");
            return -1;
        }
        for (Py_ssize_t node = base; node < end; node++) {
            share_of[node] = 0;
            if (left[node] == -1) {
                if (leaf >= n_leaves || leaves[leaf] < 0 || leaves[leaf] >= n_shares) {
                    PyErr_SetString(PyExc_ValueError, "a leaf's class shares outside the model's");
                    return -1;
                }
                share_of[node] = leaves[leaf++];
                continue;
            }
            if (left[node] < 0 || right[node] < 0 || left[node] >= end - base || right[node] >= end - base) {
                PyErr_SetString(PyExc_ValueError, "a node points outside the forest");
                return -1;
            }
            left[node] += (int)base;
            right[node] += (int)base;
        }
    }
    if (leaf != n_leaves) {
        PyErr_SetString(PyExc_ValueError, "a leaf's class shares outside the model's");
        return -1;
    }
    return 0;
}

static PyObject *pack(PyObject *self, PyObject *args) {
    PyObject *left_seq, *right_seq, *feature_seq, *threshold_seq, *values_seq, *roots_seq, *leaves_seq = NULL;
    Py_ssize_t n_classes;
    if (!PyArg_ParseTuple(args, "OOOOOOn|O", &left_seq, &right_seq, &feature_seq, &threshold_seq, &values_seq,
                          &roots_seq, &n_classes, &leaves_seq))
        return NULL;
    Py_ssize_t n = PySequence_Size(left_seq), t = PySequence_Size(roots_seq);
    Py_ssize_t n_values = leaves_seq ? PySequence_Size(values_seq) : n * n_classes;
    Py_ssize_t n_leaves = leaves_seq ? PySequence_Size(leaves_seq) : 0;
    if (n < 0 || t < 0 || n_values < 0 || n_leaves < 0) return NULL;
    if (n <= 0 || t <= 0 || n_classes <= 0 || (leaves_seq && (n_values <= 0 || n_values % n_classes))) {
        PyErr_SetString(PyExc_ValueError, "an empty forest");
        return NULL;
    }
    int *left = malloc(n * sizeof(int)), *right = malloc(n * sizeof(int)), *feature = malloc(n * sizeof(int));
    int *leaves = leaves_seq ? malloc((n_leaves + 1) * sizeof(int)) : NULL;
    int *share_of = leaves_seq ? malloc(n * sizeof(int)) : NULL;
    double *threshold = malloc(n * sizeof(double)), *values = malloc(n_values * sizeof(double));
    Forest *f = calloc(1, sizeof(Forest));
    PyObject *capsule = NULL;
    if (!left || !right || !feature || !threshold || !values || !f || (leaves_seq && (!leaves || !share_of))) {
        PyErr_NoMemory();
        goto done;
    }
    f->n_nodes = n; f->n_trees = t; f->n_classes = n_classes;
    f->nodes = malloc(n * sizeof(Node)); f->roots = malloc(t * sizeof(int));
    f->leaves = malloc(n * n_classes * sizeof(double));
    if (!f->nodes || !f->roots || !f->leaves) {
        PyErr_NoMemory();
        goto done;
    }
    if (ints(left_seq, n, left) || ints(right_seq, n, right) || ints(feature_seq, n, feature)
            || ints(roots_seq, t, f->roots) || doubles(threshold_seq, n, threshold)
            || doubles(values_seq, n_values, values)
            || (leaves_seq && (ints(leaves_seq, n_leaves, leaves)
                               || from_starts(left, right, f->roots, n, t, leaves, n_leaves,
                                              n_values / n_classes, share_of)))
            || lay_out(f, left, right, feature, threshold, values, share_of, n, t))
        goto done;
    capsule = PyCapsule_New(f, "kitten.forest", forest_free);
done:
    free(left); free(right); free(feature); free(threshold); free(values); free(leaves); free(share_of);
    if (!capsule && f) { free(f->nodes); free(f->roots); free(f->leaves); free(f); }
    return capsule;
}

/* Feature values read per block of rows, and each tree walked for every row of the block
 * before the next tree (its nodes stay in the cache): a row's shares are still summed
 * tree by tree in order, the same sums as one row at a time. */
#define BLOCK 256

/* The first ``stride`` values of the feature vector ``item`` as doubles in ``x``; every
 * value is read (a value that is no number is an error, as in Model.python_proba's
 * comparisons); -1 on error. A list's items and floats are read directly. */
static int read_row(const Forest *f, PyObject *item, double *x, Py_ssize_t stride) {
    PyObject *row = PySequence_Fast(item, "a feature vector");
    if (!row) return -1;
    Py_ssize_t m = PySequence_Fast_GET_SIZE(row);
    if (m < f->n_features) {
        Py_DECREF(row);
        PyErr_SetString(PyExc_ValueError, "a feature vector shorter than the model's features");
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(row);
    for (Py_ssize_t i = 0; i < m; i++) {
        PyObject *o = items[i];
        double v = PyFloat_CheckExact(o) ? PyFloat_AS_DOUBLE(o)
                   : PyLong_CheckExact(o) ? PyLong_AsDouble(o) : PyFloat_AsDouble(o);  /* float(int) */
        if (v == -1.0 && PyErr_Occurred()) { Py_DECREF(row); return -1; }
        if (i < stride) x[i] = v;
    }
    Py_DECREF(row);
    return 0;
}

/* Walk one tree from ``root`` for the vector ``xr`` and add its leaf's class shares to ``s``. */
static inline void add_leaf(const Forest *f, const Node *nodes, const Node *root, const double *xr, double *s) {
    const Node *node = root;
    while (node->feature >= 0)
        node = xr[node->feature] <= node->threshold ? node + 1 : nodes + node->next;
    const double *v = f->leaves + (Py_ssize_t)node->next * f->n_classes;
    for (Py_ssize_t c = 0; c < f->n_classes; c++) s[c] += v[c];
}

/* The class probabilities of the ``n`` rows of ``x`` (``stride`` values each) in ``sums``
 * (k values per row), as Model.python_proba: the shares at each tree's leaf summed in the
 * order of the trees, then divided by the number of trees (one tree: its shares). */
static void forest_proba(const Forest *f, const double *x, Py_ssize_t n, Py_ssize_t stride, double *sums) {
    Py_ssize_t k = f->n_classes;
    for (Py_ssize_t i = 0; i < n * k; i++) sums[i] = 0.0;
    for (Py_ssize_t t = 0; t < f->n_trees; t++) {
        const Node *nodes = f->nodes, *root = f->nodes + f->roots[t];
        for (Py_ssize_t r = 0; r < n; r++) {
            double *s = sums + r * k;
            add_leaf(f, nodes, root, x + r * stride, s);
        }
    }
    if (f->n_trees > 1)
        for (Py_ssize_t i = 0; i < n * k; i++) sums[i] = sums[i] / (double)f->n_trees;
}

/* The index of the first class of the highest probability of each of the ``n`` rows of
 * ``x`` in ``labels``, as forest_proba then row_result with ``top`` give it, each row's
 * trees walked only until its class is settled: once its highest sum so far exceeds every
 * other by more than the trees left could add (each adds at most 1 to a class, 1e-9 for
 * the roundings of the sums), no tree left can change which class is first. ``sums``:
 * n_classes values per row. */
static void forest_labels(const Forest *f, const double *x, Py_ssize_t n, Py_ssize_t stride, double *sums,
                          int *labels) {
    Py_ssize_t k = f->n_classes, open = n;
    for (Py_ssize_t i = 0; i < n * k; i++) sums[i] = 0.0;
    for (Py_ssize_t r = 0; r < n; r++) labels[r] = -1;  /* -1: not settled */
    for (Py_ssize_t t = 0; t < f->n_trees && open; t++) {
        const Node *nodes = f->nodes, *root = f->nodes + f->roots[t];
        double left_over = (double)(f->n_trees - t - 1) + 1e-9;
        int check = 2 * (t + 1) >= f->n_trees && t + 1 < f->n_trees;
        for (Py_ssize_t r = 0; r < n; r++) {
            if (labels[r] >= 0) continue;
            double *s = sums + r * k;
            add_leaf(f, nodes, root, x + r * stride, s);
            if (check) {
                Py_ssize_t best = 0;
                for (Py_ssize_t c = 1; c < k; c++)
                    if (s[c] > s[best]) best = c;
                double second = -1.0;
                for (Py_ssize_t c = 0; c < k; c++)
                    if (c != best && s[c] > second) second = s[c];
                if (s[best] - second > left_over) { labels[r] = (int)best; open--; }
            }
        }
    }
    for (Py_ssize_t r = 0; r < n; r++) {
        if (labels[r] >= 0) continue;
        double *s = sums + r * k;
        if (f->n_trees > 1)
            for (Py_ssize_t c = 0; c < k; c++) s[c] = s[c] / (double)f->n_trees;
        Py_ssize_t best = 0;
        for (Py_ssize_t c = 1; c < k; c++)
            if (s[c] > s[best]) best = c;
        labels[r] = (int)best;
    }
}

/* The result of one row from its probabilities ``s``: the list of them, or with ``top``
 * set the index of the first class of the highest probability and that probability, as
 * Model.predict_many reads proba's lists. */
static PyObject *row_result(const double *s, Py_ssize_t k, int top) {
    if (top) {
        Py_ssize_t best = 0;
        for (Py_ssize_t c = 1; c < k; c++)
            if (s[c] > s[best]) best = c;
        return Py_BuildValue("(nd)", best, s[best]);
    }
    PyObject *p = PyList_New(k);
    if (!p) return NULL;
    for (Py_ssize_t c = 0; c < k; c++) {
        PyObject *num = PyFloat_FromDouble(s[c]);
        if (!num) { Py_DECREF(p); return NULL; }
        PyList_SET_ITEM(p, c, num);
    }
    return p;
}

/* proba(capsule, rows), or with ``top`` set, predict(capsule, rows) (no list of
 * probabilities built per row). */
static PyObject *evaluate(PyObject *args, int top) {
    PyObject *capsule, *rows;
    if (!PyArg_ParseTuple(args, "OO", &capsule, &rows)) return NULL;
    Forest *f = PyCapsule_GetPointer(capsule, "kitten.forest");
    if (!f) return NULL;
    PyObject *rows_fast = PySequence_Fast(rows, "a sequence of feature vectors");
    if (!rows_fast) return NULL;
    Py_ssize_t n_rows = PySequence_Fast_GET_SIZE(rows_fast), k = f->n_classes;
    Py_ssize_t stride = f->n_features > 0 ? f->n_features : 1;
    PyObject *out = PyList_New(n_rows);
    double *x = malloc(BLOCK * stride * sizeof(double)), *sums = malloc(BLOCK * k * sizeof(double));
    if (!out || !x || !sums) { PyErr_NoMemory(); goto fail; }
    for (Py_ssize_t start = 0; start < n_rows; start += BLOCK) {
        Py_ssize_t n = n_rows - start < BLOCK ? n_rows - start : BLOCK;
        for (Py_ssize_t r = 0; r < n; r++)
            if (read_row(f, PySequence_Fast_GET_ITEM(rows_fast, start + r), x + r * stride, stride)) goto fail;
        forest_proba(f, x, n, stride, sums);
        for (Py_ssize_t r = 0; r < n; r++) {
            PyObject *p = row_result(sums + r * k, k, top);
            if (!p) goto fail;
            PyList_SET_ITEM(out, start + r, p);
        }
    }
    free(x); free(sums);
    Py_DECREF(rows_fast);
    return out;
fail:
    free(x); free(sums);
    Py_XDECREF(out);
    Py_DECREF(rows_fast);
    return NULL;
}

/* One feature of predict_columns: how vector r's value is read. */
typedef struct {
    int kind;  /* 0: constant; 1: values[r]; 2: values[index[r]]; 3: values[index[r] * stride + index2[r]] */
    double constant;
    const double *values;
    const int *index, *index2;
    Py_ssize_t n_values, stride;
} Column;

/* A typed array's buffer of ``format`` items (the view to release); -1 on error. */
static int typed(PyObject *o, Py_buffer *view, const char *format, Py_ssize_t size, int *held) {
    if (PyObject_GetBuffer(o, view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) return -1;
    (*held)++;
    if (view->itemsize != size || !view->format || strcmp(view->format, format) != 0) {
        PyErr_Format(PyExc_TypeError, "a feature column's values must be array('d') or a list of numbers, its indexes array('i') or a list of ints");
        return -1;
    }
    return 0;
}

/* A list read into a buffer of ours (one per list and kind in a call: a list of indexes
 * that many features share is read once). */
typedef struct {
    PyObject *list;
    int index;
    Py_ssize_t n;
    void *buf;
} Converted;

/* A feature column's values (``index`` 0: doubles) or indexes (``index`` 1: ints) from an
 * array('d') / array('i'), read in place (its view held in ``view``), or from a list of
 * numbers / ints, read once into a buffer of ours (in ``read``, ``*n_read`` of them so
 * far, freed by the caller); ``*data`` and ``*n`` the items and their number. -1 with an
 * error set otherwise. */
static int column_data(PyObject *o, Py_buffer *view, int *held, int index, const void **data, Py_ssize_t *n,
                       Converted *read, int *n_read) {
    Py_ssize_t size = index ? (Py_ssize_t)sizeof(int) : (Py_ssize_t)sizeof(double);
    if (!PyList_Check(o)) {
        if (typed(o, view, index ? "i" : "d", size, held)) return -1;
        *data = view->buf;
        *n = view->len / size;
        return 0;
    }
    for (int k = 0; k < *n_read; k++)
        if (read[k].list == o && read[k].index == index) {
            *data = read[k].buf;
            *n = read[k].n;
            return 0;
        }
    Py_ssize_t len = PyList_GET_SIZE(o);
    void *buf = malloc((size_t)(len ? len : 1) * (size_t)size);
    if (!buf) { PyErr_NoMemory(); return -1; }
    Py_INCREF(o);  /* held until the call ends: no other list can take its address */
    read[*n_read].list = o;
    read[*n_read].index = index;
    read[*n_read].n = len;
    read[(*n_read)++].buf = buf;
    for (Py_ssize_t i = 0; i < len; i++) {
        if (i >= PyList_GET_SIZE(o)) {  /* the list changed while read (an item's __float__) */
            PyErr_SetString(PyExc_ValueError, "a feature column changed while it was read");
            return -1;
        }
        PyObject *item = PyList_GET_ITEM(o, i);
        Py_INCREF(item);
        if (index) {
            long v = PyLong_AsLong(item);
            Py_DECREF(item);
            if (v == -1 && PyErr_Occurred()) return -1;
            if (v < INT_MIN || v > INT_MAX) {
                PyErr_SetString(PyExc_IndexError, "a feature column's index outside its values");
                return -1;
            }
            ((int *)buf)[i] = (int)v;
        } else {
            double v = PyFloat_AsDouble(item);
            Py_DECREF(item);
            if (v == -1.0 && PyErr_Occurred()) return -1;
            ((double *)buf)[i] = v;
        }
    }
    *data = buf;
    *n = len;
    return 0;
}

static PyObject *predict_columns(PyObject *self, PyObject *args) {
    PyObject *capsule, *columns;
    Py_ssize_t n_rows;
    int labels_only = 0;
    if (!PyArg_ParseTuple(args, "OnO|p", &capsule, &n_rows, &columns, &labels_only)) return NULL;
    Forest *f = PyCapsule_GetPointer(capsule, "kitten.forest");
    if (!f) return NULL;
    if (n_rows < 0) { PyErr_SetString(PyExc_ValueError, "a negative number of vectors"); return NULL; }
    PyObject *cols_fast = PySequence_Fast(columns, "a sequence of feature columns");
    if (!cols_fast) return NULL;
    Py_ssize_t m = PySequence_Fast_GET_SIZE(cols_fast), k = f->n_classes;
    Py_ssize_t stride = f->n_features > 0 ? f->n_features : 1;
    PyObject *out = NULL;
    Column *cols = calloc(m + 1, sizeof(Column));
    Py_buffer *views = calloc(3 * m + 1, sizeof(Py_buffer));
    Converted *read = calloc(3 * m + 1, sizeof(Converted));  /* the lists read into buffers */
    int held = 0, n_read = 0;
    double *x = malloc(BLOCK * stride * sizeof(double)), *sums = malloc(BLOCK * k * sizeof(double));
    int labels[BLOCK];
    if (!cols || !views || !read || !x || !sums) { PyErr_NoMemory(); goto done; }
    if (m < f->n_features) {
        PyErr_SetString(PyExc_ValueError, "fewer feature columns than the model's features");
        goto done;
    }
    for (Py_ssize_t j = 0; j < m; j++) {
        PyObject *o = PySequence_Fast_GET_ITEM(cols_fast, j);
        Column *c = cols + j;
        if (PyFloat_Check(o) || PyLong_Check(o)) {
            c->kind = 0;
            c->constant = PyFloat_AsDouble(o);
            if (c->constant == -1.0 && PyErr_Occurred()) goto done;
        } else if (PyTuple_Check(o) && (PyTuple_GET_SIZE(o) == 2 || PyTuple_GET_SIZE(o) == 4)) {
            const void *data;
            Py_ssize_t n_index;
            if (column_data(PyTuple_GET_ITEM(o, 0), views + held, &held, 0, &data, &c->n_values, read, &n_read))
                goto done;
            c->values = data;
            if (column_data(PyTuple_GET_ITEM(o, 1), views + held, &held, 1, &data, &n_index, read, &n_read))
                goto done;
            c->index = data;
            c->kind = 2;
            if (n_index != n_rows) {
                PyErr_SetString(PyExc_ValueError, "a feature column's index is not one per vector");
                goto done;
            }
            if (PyTuple_GET_SIZE(o) == 4) {
                if (column_data(PyTuple_GET_ITEM(o, 2), views + held, &held, 1, &data, &n_index, read, &n_read))
                    goto done;
                c->index2 = data;
                c->stride = PyLong_AsSsize_t(PyTuple_GET_ITEM(o, 3));
                if (c->stride == -1 && PyErr_Occurred()) goto done;
                c->kind = 3;
                if (n_index != n_rows) {
                    PyErr_SetString(PyExc_ValueError, "a feature column's index is not one per vector");
                    goto done;
                }
            }
        } else {
            const void *data;
            if (column_data(o, views + held, &held, 0, &data, &c->n_values, read, &n_read)) goto done;
            c->values = data;
            c->kind = 1;
            if (c->n_values != n_rows) {
                PyErr_SetString(PyExc_ValueError, "a feature column is not one value per vector");
                goto done;
            }
        }
    }
    out = PyList_New(n_rows);
    if (!out) goto done;
    for (Py_ssize_t start = 0; start < n_rows; start += BLOCK) {
        Py_ssize_t n = n_rows - start < BLOCK ? n_rows - start : BLOCK;
        for (Py_ssize_t j = 0; j < f->n_features; j++) {
            const Column *c = cols + j;
            for (Py_ssize_t r = 0; r < n; r++) {
                Py_ssize_t at = start + r, i;
                double value;
                switch (c->kind) {
                case 0: value = c->constant; break;
                case 1: value = c->values[at]; break;
                default:
                    i = c->kind == 2 ? c->index[at] : (Py_ssize_t)c->index[at] * c->stride + c->index2[at];
                    if (i < 0 || i >= c->n_values) {
                        PyErr_SetString(PyExc_IndexError, "a feature column's index outside its values");
                        Py_CLEAR(out);
                        goto done;
                    }
                    value = c->values[i];
                }
                x[r * stride + j] = value;
            }
        }
        if (labels_only) {
            forest_labels(f, x, n, stride, sums, labels);
            for (Py_ssize_t r = 0; r < n; r++) {
                PyObject *p = PyLong_FromLong(labels[r]);
                if (!p) { Py_CLEAR(out); goto done; }
                PyList_SET_ITEM(out, start + r, p);
            }
            continue;
        }
        forest_proba(f, x, n, stride, sums);
        for (Py_ssize_t r = 0; r < n; r++) {
            PyObject *p = row_result(sums + r * k, k, 1);
            if (!p) { Py_CLEAR(out); goto done; }
            PyList_SET_ITEM(out, start + r, p);
        }
    }
done:
    for (int h = 0; h < held; h++) PyBuffer_Release(views + h);
    for (int h = 0; h < n_read; h++) { free(read[h].buf); Py_DECREF(read[h].list); }
    free(cols); free(views); free(read); free(x); free(sums);
    Py_DECREF(cols_fast);
    return out;
}

static PyObject *proba(PyObject *self, PyObject *args) { return evaluate(args, 0); }

static PyObject *predict(PyObject *self, PyObject *args) { return evaluate(args, 1); }

static PyMethodDef methods[] = {
    {"pack", pack, METH_VARARGS, "Lay a forest's trees out for proba()."},
    {"proba", proba, METH_VARARGS, "Class probabilities of each feature vector."},
    {"predict", predict, METH_VARARGS, "(class index, probability) of each feature vector."},
    {"predict_columns", predict_columns, METH_VARARGS, "predict of feature vectors given by feature."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_forest", NULL, -1, methods};

PyMODINIT_FUNC PyInit__forest(void) { return PyModule_Create(&module); }
