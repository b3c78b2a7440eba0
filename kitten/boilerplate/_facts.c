/* The per-block text facts of the boilerplate gate's features, in C.
 *
 * text_facts(raw) -> (text, lower, tokens, alpha, digits, upper, alnum, upper_initial,
 *                     all_upper, with_digit, words, sentences)
 *
 * The same values as kitten/boilerplate/features.py's Python fallback
 * (the body of ``text_facts`` without the extension), operation for operation:
 *   tokens   len(raw.split())
 *   text     " ".join(raw.split()) (made in one pass, without the tokens' strings)
 *   lower    text.lower()
 *   alpha, digits, upper, alnum: the characters of text for which str.isalpha,
 *            str.isdigit, str.isupper, str.isalnum is true
 *   upper_initial, all_upper, with_digit: the tokens whose first character is
 *            upper-case, that are upper-case (str.isupper), that hold a digit
 *   words    tokens + unspaced // 2 (unspaced: the characters of the ranges of
 *            _UNSPACED, scripts written without spaces)
 *   sentences  0 without words, else max(1, text.count(". ") + text.count("! ")
 *            + text.count("? ") + (text[-1] in ".!?") + the full stops of _FULL_STOPS
 *            when unspaced)
 * Characters are classified with the macros str's own methods use (Py_UNICODE_ISALPHA
 * ...), so the figures cannot differ from the Python loop's.
 *
 * block_facts(texts, sources, links, cls) -> list: the ``_Facts`` (``cls``, a named
 * tuple) of each block of a page from its text's facts as above, its link letters
 * min(links.get(source, 0), alnum) and (upper_initial, all_upper, with_digit) as one
 * tuple: ``_block_facts`` of features.py (its Python fallback) for all blocks in one call.
 *
 * ascii_dates(text) -> (date, time): whether features.py's ``_DATE`` and ``_TIME`` match an
 * ASCII ``text`` somewhere, without the regular-expression engine: each alternative's
 * backtracking worked out by hand (a digit run of bounded length followed by a
 * separator, a space or a word's end must be the whole run), with re's ASCII classes
 * (\w letters, digits and _, \s white space and \x1c-\x1f, re.I's [a-z] the ASCII letters).
 *
 * Stop words are counted without a string per token: a block's stripped tokens are
 * [t.strip(strip) for t in lower.split()] (``strip``: features.py's ``_STRIP``; empty ones
 * kept), read in place in ``lower`` (:c:func:`lookup_kind`) and looked up by their
 * characters in a word table (:c:type:`WordTable`, open addressing over the words' UTF-8
 * bytes; the hash is of the code points, so a token of any string kind finds its word).
 *
 * word_table(words) -> capsule: the word table of the dict ``words`` (str -> int in
 * 0 .. 2**31-1), made once per list (features.py caches them): the page's stop-word
 * list (value 0 for each word) for ``content``, ``kitten.language.stop_word_index``'s
 * words -> groups for ``stop_groups``.
 *
 * stop_groups(facts, table, strip, limit) -> (counts, n): the first ``limit`` stripped
 * tokens of the blocks' ``lower`` (``_Facts``; a block's tokens cut at the limit): ``n``,
 * how many there are, and ``counts``, how many have each value of ``table`` (a dict
 * value -> count, the values in the order their first token comes; tokens not in the
 * table not counted): ``Counter(map(group_of.get, sample))`` less None, as
 * ``kitten.language.page_stop_words`` counts its sample, for ``stop_words_of_counts``.
 *
 * content(own, facts, stop, strip, names, ratios, counts, end_stop): the ``content``
 * family's features up to ``end.*`` for every block of a page whose stop-word list is
 * known (``stop``: its word table; ``_content_counts`` in features.py, the Python loop it
 * replaces, operation for operation): appended to each block's list of ``own``.
 * ``names``: the tuple of name lists of CONTENT_NAMES' prefixes, in order; ``ratios``,
 * ``counts``: the thresholds with -inf first (``_below``); a value's name is
 * names[bisect_right(below, v) - 1].
 *
 * feature_sums(own, index, weights, out): each block's sum of the weight rows of its
 * features (``Scorer.sums`` in crf.py, whose numpy fallback it replaces): out[i] =
 * weights[0] + the rows index[f] (0 for a feature not in ``index``) of own[i]'s
 * features, added in the order numpy's ``add.reduceat`` adds them (its pairwise
 * summation, :c:func:`pairwise`, every column in one pass over the rows), so the sums
 * are the same to the last bit.
 * ``weights``, ``out``: C-contiguous float64 buffers of as many columns; ``out`` has a
 * row per block.
 *
 * forward_backward(u, t, out): each block's marginal probability of each label
 * (``Scorer.marginals`` in crf.py, whose numpy prefix scans it replaces): ``u`` the
 * blocks' state potentials (blocks x labels, exp of the scores less each row's
 * largest), ``t`` the transition potentials (labels x labels); the forward and backward
 * vectors computed block after block, each divided by its largest entry (a vector is
 * needed only up to its scale), then out[i] = alpha[i] * beta[i] divided by its sum.
 * The same probabilities as the scans to about 1e-15 (another order of the same
 * products). ``u``, ``t``, ``out``: C-contiguous float64 buffers.
 *
 * word_hits(texts, words) -> list: for each text of ``texts``, (n, hits): its words, the
 * runs of characters of re's \w that ``_WORD.findall`` finds (a letter or digit as
 * str.isalnum sees it, or _), and how many of them are in the set ``words``
 * (``_word_hits`` in features.py, its Python fallback).
 *
 * shallow(own, facts, names, thresholds): the ``shallow`` family's features of every block
 * of a page (``_python_shallow`` in features.py, the Python loop it replaces, operation
 * for operation), appended to each block's list of ``own``: its link density
 * (link_letters / letters, 0 without letters), text density (words per 80-character
 * line of its text, at least one line), the words of the block before over its own and
 * its own over the next block's (10.0 without the divisor's words; 0 words past the
 * page's ends). ``names``: the four name lists, ``thresholds``: their thresholds with
 * -inf first, as for content.
 *
 * splits(own, blocks, contexts, split_names, thresholds, br_names, counts, br): the
 * ``split`` family's features of every block of a page (``_python_splits`` in
 * features.py, the Python loop it replaces), appended to each block's list of ``own``:
 * split_names(closed, opened, thresholds) (features.py's cached ``_split_names``) of
 * the names of the elements of the previous block's chain (its context's first two
 * items) past those it shares with this block's from the start, compared by identity
 * (lxml's elements compare so), and of this block's past them; then the name in
 * ``br_names`` of its line breaks (the items of its ``inlines`` that are ``br``, the
 * document's ``BR``; as list.count counts them: no other item equals it), ``counts``
 * the count thresholds with -inf first.
 *
 * (The blocks' link letters are counted on lxml's tree itself, ``block_link_letters`` of
 * kitten/_links.c, and their contexts made from it, ``block_contexts`` of kitten/_structure.c.)
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* str.isupper of the characters [start, end) of a string's ``data`` of ``kind``
   (unicode_isupper_impl of CPython) */
static int
is_upper(int kind, const void *data, Py_ssize_t start, Py_ssize_t end)
{
    if (end - start == 1)
        return Py_UNICODE_ISUPPER(PyUnicode_READ(kind, data, start)) != 0;
    int cased = 0;
    for (Py_ssize_t i = start; i < end; i++) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        if (Py_UNICODE_ISLOWER(ch) || Py_UNICODE_ISTITLE(ch))
            return 0;
        if (!cased && Py_UNICODE_ISUPPER(ch))
            cased = 1;
    }
    return cased;
}

/* does [start, end) of a string's ``data`` of ``kind`` hold a str.isdigit character? */
static int
has_digit(int kind, const void *data, Py_ssize_t start, Py_ssize_t end)
{
    for (Py_ssize_t i = start; i < end; i++)
        if (Py_UNICODE_ISDIGIT(PyUnicode_READ(kind, data, i)))
            return 1;
    return 0;
}

/* " ".join(s.split()) (``s`` itself when that is the same text), and into ``n_toks``
   the number of tokens: two passes, the first finding the result's length and largest
   character (a string is made in the smallest kind that holds its characters) */
static PyObject *
collapsed(PyObject *s, Py_ssize_t *n_toks)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(s), kept = 0, toks = 0, spaces = 0;
    int kind = PyUnicode_KIND(s), in_token = 0;
    const void *data = PyUnicode_DATA(s);
    Py_UCS4 maxchar = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        if (Py_UNICODE_ISSPACE(ch)) {
            spaces += ch == ' ';
            in_token = 0;
            continue;
        }
        toks += !in_token;
        in_token = 1;
        kept++;
        if (ch > maxchar)
            maxchar = ch;
    }
    *n_toks = toks;
    Py_ssize_t size = kept + (toks ? toks - 1 : 0);
    if (size == n && spaces == n - kept)  /* single spaces between tokens only */
        return Py_NewRef(s);
    PyObject *out = PyUnicode_New(size, toks > 1 && maxchar < ' ' ? ' ' : maxchar);
    if (out == NULL)
        return NULL;
    int okind = PyUnicode_KIND(out);
    void *odata = PyUnicode_DATA(out);
    Py_ssize_t j = 0;
    in_token = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        if (Py_UNICODE_ISSPACE(ch)) {
            in_token = 0;
            continue;
        }
        if (!in_token && j > 0)
            PyUnicode_WRITE(okind, odata, j++, ' ');
        in_token = 1;
        PyUnicode_WRITE(okind, odata, j++, ch);
    }
    return out;
}

/* the characters stripped from the ends of tokens (features.py's ``_STRIP``): bit c of
   low[c >> 6] set for each one c < 256, the others in ``high`` (``n_high`` of them; -1:
   more than fit, looked up in the string ``chars`` itself) */
typedef struct {
    uint64_t low[4];
    Py_UCS4 high[8];
    int n_high;
    PyObject *chars;  /* borrowed */
} Strip;

static void
strip_of(PyObject *chars, Strip *st)
{
    memset(st, 0, sizeof(Strip));
    st->chars = chars;
    int kind = PyUnicode_KIND(chars);
    const void *data = PyUnicode_DATA(chars);
    for (Py_ssize_t i = 0; i < PyUnicode_GET_LENGTH(chars); i++) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        if (ch < 256)
            st->low[ch >> 6] |= (uint64_t)1 << (ch & 63);
        else if (st->n_high >= 0 && st->n_high < 8)
            st->high[st->n_high++] = ch;
        else
            st->n_high = -1;
    }
}

/* is ``ch`` one of the characters of ``st``? */
static inline int
is_stripped(const Strip *st, Py_UCS4 ch)
{
    if (ch < 256)
        return (int)((st->low[ch >> 6] >> (ch & 63)) & 1);
    if (st->n_high < 0)
        return PyUnicode_FindChar(st->chars, ch, 0, PyUnicode_GET_LENGTH(st->chars), 1) >= 0;
    for (int k = 0; k < st->n_high; k++)
        if (st->high[k] == ch)
            return 1;
    return 0;
}

/* counts[0..3] (alpha, digits, upper, alnum) of an ASCII character ``ch``: what
   Py_UNICODE_ISALPHA ... give for it, without their table look-ups */
static inline void
count_ascii(Py_UCS4 ch, Py_ssize_t *counts)
{
    int is_up = ch >= 'A' && ch <= 'Z', is_alpha = is_up || (ch >= 'a' && ch <= 'z');
    int is_digit = ch >= '0' && ch <= '9';
    counts[0] += is_alpha;
    counts[1] += is_digit;
    counts[2] += is_up;
    counts[3] += is_alpha || is_digit;
}

/* is ``ch`` of a script written without spaces (the ranges of _UNSPACED in features.py)? */
static int
is_unspaced(Py_UCS4 ch)
{
    return (ch >= 0x0E00 && ch <= 0x0EFF) || (ch >= 0x1000 && ch <= 0x109F) || (ch >= 0x1780 && ch <= 0x17FF)
        || (ch >= 0x3040 && ch <= 0x30FF) || (ch >= 0x3400 && ch <= 0x4DBF) || (ch >= 0x4E00 && ch <= 0x9FFF)
        || (ch >= 0xF900 && ch <= 0xFAFF);
}

/* Word tables: a set of words (each with a value, 0 .. 2^31-1) looked up by the
   characters of a token, without making the token's string. Open addressing with linear
   probing over twice as many slots as words (a power of two); a slot holds the upper half
   of the word's 64-bit hash (``tag``) and where its entry starts in ``blob`` (+1; 0: an
   empty slot); an entry is the value (int32), the length of the word in UTF-8 (uint32),
   the UTF-8 bytes (lone surrogates in 3 bytes, as "surrogatepass"), padded to 4 bytes.
   The hash is of the code points, so a word matches a token of any string kind. */
typedef struct {
    uint32_t tag, at;
} WordSlot;

typedef struct {
    size_t mask;  /* slots - 1 */
    WordSlot *slots;
    unsigned char *blob;
    Py_ssize_t n_values;  /* the largest value + 1 */
} WordTable;

static const char WORD_TABLE[] = "kitten.boilerplate._facts.WordTable";

/* the UTF-8 bytes of ``c`` into ``b``, their number */
static inline int
utf8_of(Py_UCS4 c, unsigned char *b)
{
    if (c < 0x80) {
        b[0] = (unsigned char)c;
        return 1;
    }
    if (c < 0x800) {
        b[0] = (unsigned char)(0xC0 | (c >> 6));
        b[1] = (unsigned char)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        b[0] = (unsigned char)(0xE0 | (c >> 12));
        b[1] = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
        b[2] = (unsigned char)(0x80 | (c & 0x3F));
        return 3;
    }
    b[0] = (unsigned char)(0xF0 | (c >> 18));
    b[1] = (unsigned char)(0x80 | ((c >> 12) & 0x3F));
    b[2] = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
    b[3] = (unsigned char)(0x80 | (c & 0x3F));
    return 4;
}

/* the 64-bit hash of a word: FNV-1a over its code points (FNV_STEP from FNV_START),
   then murmur3's finalizer (hash_end) so that the low bits, the slot, are mixed */
#define FNV_START 0xcbf29ce484222325ULL
#define FNV_STEP(h, c) (((h) ^ (uint64_t)(c)) * 0x100000001b3ULL)

static inline uint64_t
hash_end(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

/* is the entry ``e`` (of a word table's blob) the word of the characters [i, j)? */
static inline int
same_word(const unsigned char *e, int kind, const void *data, Py_ssize_t i, Py_ssize_t j)
{
    uint32_t len, p = 0;
    memcpy(&len, e + 4, 4);
    const unsigned char *key = e + 8;
    for (; i < j; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (c < 0x80) {  /* one byte */
            if (p == len || key[p] != c)
                return 0;
            p++;
            continue;
        }
        unsigned char b[4];
        uint32_t nb = (uint32_t)utf8_of(c, b);
        if (len - p < nb)
            return 0;
        for (uint32_t q = 0; q < nb; q++)
            if (key[p + q] != b[q])
                return 0;
        p += nb;
    }
    return p == len;
}

/* the value of the word of the characters [i, j) of ``data`` of ``kind`` (``h``: its
   hash) in ``t``, -1 when it is not there */
static inline int32_t
word_value(const WordTable *t, uint64_t h, int kind, const void *data, Py_ssize_t i, Py_ssize_t j)
{
    uint32_t tag = (uint32_t)(h >> 32);
    for (size_t s = (size_t)h & t->mask;; s = (s + 1) & t->mask) {
        uint32_t at = t->slots[s].at;
        if (at == 0)
            return -1;
        if (t->slots[s].tag == tag && same_word(t->blob + at - 1, kind, data, i, j)) {
            int32_t v;
            memcpy(&v, t->blob + at - 1, 4);
            return v;
        }
    }
}

/* the stripped tokens of a string's ``data`` of ``kind`` and length ``n`` (at most
   ``limit`` of them) looked up in ``t``: how many are in it (``hits``) and, with
   ``counts``, how many have each value (``order``: the values in the order they come
   first, ``n_order`` of them); returns the tokens read. The tokens are those of
   [t.strip(chars) for t in s.split()] (``st``: the characters of ``chars``), each read
   once: the hash of its characters from the first one not stripped is kept at each
   character not stripped, so that the last one kept is that of the stripped token.
   Inlined with ``kind`` a constant (:c:func:`lookup_tokens`), so that each string kind
   gets its own loop without a test of the kind per character. */
static inline __attribute__((always_inline)) Py_ssize_t
lookup_kind(const int kind, const void *data, Py_ssize_t n, const Strip *st, const WordTable *t, Py_ssize_t limit,
            Py_ssize_t *hits, Py_ssize_t *counts, int32_t *order, Py_ssize_t *n_order)
{
    Py_ssize_t k = 0, read = 0;
    while (read < limit) {
        while (k < n && Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, k)))
            k++;
        if (k == n)
            break;
        Py_UCS4 c;
        while (k < n && !Py_UNICODE_ISSPACE(c = PyUnicode_READ(kind, data, k)) && is_stripped(st, c))
            k++;  /* stripped from the start */
        Py_ssize_t a = k, b = k;
        uint64_t h = FNV_START, kept = FNV_START;
        while (k < n && !Py_UNICODE_ISSPACE(c = PyUnicode_READ(kind, data, k))) {
            h = FNV_STEP(h, c);
            k++;
            if (!is_stripped(st, c)) {  /* the token ends here unless a character kept follows */
                kept = h;
                b = k;
            }
        }
        read++;
        int32_t v = word_value(t, hash_end(kept), kind, data, a, b);
        if (v < 0)
            continue;
        *hits += 1;
        if (counts != NULL && counts[v]++ == 0)
            order[(*n_order)++] = v;
    }
    return read;
}

/* lookup_kind for the kind of the string ``s`` */
static Py_ssize_t
lookup_tokens(PyObject *s, const Strip *st, const WordTable *t, Py_ssize_t limit, Py_ssize_t *hits,
              Py_ssize_t *counts, int32_t *order, Py_ssize_t *n_order)
{
    const void *data = PyUnicode_DATA(s);
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    switch (PyUnicode_KIND(s)) {
    case PyUnicode_1BYTE_KIND:
        return lookup_kind(PyUnicode_1BYTE_KIND, data, n, st, t, limit, hits, counts, order, n_order);
    case PyUnicode_2BYTE_KIND:
        return lookup_kind(PyUnicode_2BYTE_KIND, data, n, st, t, limit, hits, counts, order, n_order);
    default:
        return lookup_kind(PyUnicode_4BYTE_KIND, data, n, st, t, limit, hits, counts, order, n_order);
    }
}

static void
free_word_table(PyObject *capsule)
{
    WordTable *t = PyCapsule_GetPointer(capsule, WORD_TABLE);
    if (t != NULL) {
        PyMem_Free(t->slots);
        PyMem_Free(t->blob);
        PyMem_Free(t);
    }
}

/* the bytes of a word's entry in a blob (value, length, UTF-8 padded to 4) */
static size_t
entry_size(PyObject *word)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(word);
    int kind = PyUnicode_KIND(word);
    const void *data = PyUnicode_DATA(word);
    size_t bytes = 0;
    unsigned char b[4];
    for (Py_ssize_t i = 0; i < n; i++)
        bytes += (size_t)utf8_of(PyUnicode_READ(kind, data, i), b);
    return 8 + ((bytes + 3) & ~(size_t)3);
}

/* word_table(words) -> capsule: the word table of the dict ``words`` (str -> int) */
static PyObject *
word_table(PyObject *self, PyObject *args)
{
    PyObject *words, *key, *value;
    if (!PyArg_ParseTuple(args, "O!", &PyDict_Type, &words))
        return NULL;
    Py_ssize_t n = PyDict_GET_SIZE(words), pos = 0;
    size_t slots = 8, blob_size = 0;
    while (slots < 2 * (size_t)n)
        slots *= 2;
    long largest = -1;
    while (PyDict_Next(words, &pos, &key, &value)) {
        long v = PyLong_Check(value) ? PyLong_AsLong(value) : -1;
        if (!PyUnicode_Check(key) || v < 0 || v > INT32_MAX) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "word_table takes a dict of str -> int in 0 .. 2**31-1");
            return NULL;
        }
        if (v > largest)
            largest = v;
        blob_size += entry_size(key);
    }
    if (blob_size >= UINT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "too many words for a word table");
        return NULL;
    }
    WordTable *t = PyMem_Calloc(1, sizeof(WordTable));
    if (t == NULL)
        return PyErr_NoMemory();
    t->mask = slots - 1;
    t->n_values = largest + 1;
    t->slots = PyMem_Calloc(slots, sizeof(WordSlot));
    t->blob = PyMem_Calloc(blob_size ? blob_size : 1, 1);
    if (t->slots == NULL || t->blob == NULL) {
        PyMem_Free(t->slots);
        PyMem_Free(t->blob);
        PyMem_Free(t);
        return PyErr_NoMemory();
    }
    size_t off = 0;
    pos = 0;
    while (PyDict_Next(words, &pos, &key, &value)) {
        Py_ssize_t len = PyUnicode_GET_LENGTH(key);
        int kind = PyUnicode_KIND(key);
        const void *data = PyUnicode_DATA(key);
        int32_t v = (int32_t)PyLong_AsLong(value);
        uint32_t bytes = 0;
        for (Py_ssize_t i = 0; i < len; i++)
            bytes += (uint32_t)utf8_of(PyUnicode_READ(kind, data, i), t->blob + off + 8 + bytes);
        memcpy(t->blob + off, &v, 4);
        memcpy(t->blob + off + 4, &bytes, 4);
        uint64_t h = FNV_START;
        for (Py_ssize_t i = 0; i < len; i++)
            h = FNV_STEP(h, PyUnicode_READ(kind, data, i));
        h = hash_end(h);
        size_t s = (size_t)h & t->mask;
        while (t->slots[s].at != 0)
            s = (s + 1) & t->mask;
        t->slots[s].tag = (uint32_t)(h >> 32);
        t->slots[s].at = (uint32_t)off + 1;
        off += 8 + ((bytes + 3) & ~(uint32_t)3);
    }
    PyObject *capsule = PyCapsule_New(t, WORD_TABLE, free_word_table);
    if (capsule == NULL) {
        PyMem_Free(t->slots);
        PyMem_Free(t->blob);
        PyMem_Free(t);
    }
    return capsule;
}

static PyObject *LOWER;  /* "lower", interned (the method, and the attribute of _Facts) */

/* stop_groups(facts, table, strip, limit) -> (counts, n): the first ``limit`` tokens of
   the blocks' ``lower`` texts (a block's tokens cut at the limit), each stripped of the
   characters of ``strip``: how many (n), and how many have each value of the word table
   ``table`` (a dict value -> count, the values in the order their first token comes) */
static PyObject *
stop_groups(PyObject *self, PyObject *args)
{
    PyObject *facts, *capsule, *chars;
    Py_ssize_t limit;
    if (!PyArg_ParseTuple(args, "O!OUn", &PyList_Type, &facts, &capsule, &chars, &limit))
        return NULL;
    WordTable *t = PyCapsule_GetPointer(capsule, WORD_TABLE);
    if (t == NULL)
        return NULL;
    Py_ssize_t *counts = PyMem_Calloc(t->n_values ? t->n_values : 1, sizeof(Py_ssize_t));
    int32_t *order = PyMem_Calloc(t->n_values ? t->n_values : 1, sizeof(int32_t));
    PyObject *found = NULL, *out = NULL;
    if (counts == NULL || order == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Strip st;
    strip_of(chars, &st);
    Py_ssize_t seen = 0, n_order = 0, hits = 0;
    for (Py_ssize_t b = 0; b < PyList_GET_SIZE(facts) && seen < limit; b++) {
        PyObject *lower = PyObject_GetAttr(PyList_GET_ITEM(facts, b), LOWER);
        if (lower == NULL)
            goto done;
        if (!PyUnicode_Check(lower)) {
            Py_DECREF(lower);
            PyErr_SetString(PyExc_TypeError, "a block's lower is not a str");
            goto done;
        }
        seen += lookup_tokens(lower, &st, t, limit - seen, &hits, counts, order, &n_order);
        Py_DECREF(lower);
    }
    found = PyDict_New();
    if (found == NULL)
        goto done;
    for (Py_ssize_t k = 0; k < n_order; k++) {
        PyObject *key = PyLong_FromLong(order[k]), *count = PyLong_FromSsize_t(counts[order[k]]);
        int r = key && count ? PyDict_SetItem(found, key, count) : -1;
        Py_XDECREF(key);
        Py_XDECREF(count);
        if (r < 0)
            goto done;
    }
    out = Py_BuildValue("(On)", found, seen);
done:
    Py_XDECREF(found);
    PyMem_Free(counts);
    PyMem_Free(order);
    return out;
}

/* the facts of ``raw``, as text_facts returns them, into ``out`` (12 new references, in
   text_facts' order) */
static int
facts_of(PyObject *raw, PyObject **out)
{
    PyObject *text = NULL, *lower = NULL;
    Py_ssize_t n_toks;
    text = collapsed(raw, &n_toks);
    if (text == NULL)
        goto error;
    Py_ssize_t counts[4] = {0, 0, 0, 0};  /* alpha, digits, upper, alnum */
    Py_ssize_t unspaced = 0, full_stops = 0, stops = 0;
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_UCS4 prev = 0;
    if (PyUnicode_IS_ASCII(text)) {  /* the ASCII branch of the loop below, on the bytes */
        const Py_UCS1 *b = (const Py_UCS1 *)data;
        for (Py_ssize_t i = 0; i < n; prev = b[i], i++) {
            stops += b[i] == ' ' && (prev == '.' || prev == '!' || prev == '?');
            count_ascii(b[i], counts);
        }
    }
    else  /* some character is not ASCII */
    for (Py_ssize_t i = 0; i < n; prev = PyUnicode_READ(kind, data, i), i++) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        stops += ch == ' ' && (prev == '.' || prev == '!' || prev == '?');
        if (ch < 128) {
            count_ascii(ch, counts);
            continue;
        }
        counts[0] += Py_UNICODE_ISALPHA(ch) != 0;
        counts[1] += Py_UNICODE_ISDIGIT(ch) != 0;
        counts[2] += Py_UNICODE_ISUPPER(ch) != 0;
        counts[3] += Py_UNICODE_ISALNUM(ch) != 0;
        unspaced += is_unspaced(ch);
        full_stops += ch == 0x3002 || ch == 0xFF01 || ch == 0xFF1F || ch == 0xFF61;
    }
    Py_ssize_t alpha = counts[0], digits = counts[1], upper = counts[2], alnum = counts[3];
    /* an ASCII text without upper-case letters is its own lower-case (text.lower() makes
       an equal string) */
    lower = PyUnicode_IS_ASCII(text) && !upper ? Py_NewRef(text) : PyObject_CallMethodNoArgs(text, LOWER);
    if (lower == NULL)
        goto error;
    Py_ssize_t words = n_toks + unspaced / 2, sentences = 0;
    if (words) {
        Py_UCS4 last = PyUnicode_READ(kind, data, n - 1);
        sentences = stops + (unspaced ? full_stops : 0) + (last == '.' || last == '!' || last == '?');
        if (sentences < 1)
            sentences = 1;
    }
    /* the tokens of text: separated by single spaces */
    Py_ssize_t upper_initial = 0, all_upper = 0, with_digit = 0;
    if (upper || digits) {
        for (Py_ssize_t start = 0; start < n;) {
            Py_ssize_t end = start;
            while (end < n && PyUnicode_READ(kind, data, end) != ' ')
                end++;
            if (upper) {
                upper_initial += Py_UNICODE_ISUPPER(PyUnicode_READ(kind, data, start)) != 0;
                all_upper += is_upper(kind, data, start, end);
            }
            if (digits)
                with_digit += has_digit(kind, data, start, end);
            start = end + 1;
        }
    }
    out[0] = text;
    out[1] = lower;
    Py_ssize_t ints[12] = {0, 0, n_toks, alpha, digits, upper, alnum, upper_initial, all_upper, with_digit,
                           words, sentences};
    for (int k = 2; k < 12; k++) {
        if ((out[k] = PyLong_FromSsize_t(ints[k])) == NULL) {
            for (int j = 0; j < k; j++)
                Py_DECREF(out[j]);
            return -1;
        }
    }
    return 0;
error:
    Py_XDECREF(text);
    Py_XDECREF(lower);
    return -1;
}

static PyObject *
text_facts(PyObject *self, PyObject *args)
{
    PyObject *raw, *v[12];
    if (!PyArg_ParseTuple(args, "U", &raw))
        return NULL;
    if (facts_of(raw, v) < 0)
        return NULL;
    PyObject *out = PyTuple_New(12);
    if (out == NULL) {
        for (int k = 0; k < 12; k++)
            Py_DECREF(v[k]);
        return NULL;
    }
    for (int k = 0; k < 12; k++)
        PyTuple_SET_ITEM(out, k, v[k]);
    return out;
}

/* the positions in text_facts' tuple of the fields of features.py's _Facts, in its order
   (-1: link_letters, -2: token_counts, made here) */
static const int FACTS_ORDER[11] = {0, 1, 2, 10, -1, 6, 3, 4, 5, -2, 11};

static PyObject *
block_facts(PyObject *self, PyObject *args)
{
    PyObject *texts, *sources, *links, *cls;
    if (!PyArg_ParseTuple(args, "O!O!O!O!", &PyList_Type, &texts, &PyList_Type, &sources, &PyDict_Type, &links,
                          &PyType_Type, &cls))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(texts);
    if (PyList_GET_SIZE(sources) != n || !PyType_IsSubtype((PyTypeObject *)cls, &PyTuple_Type)) {
        PyErr_SetString(PyExc_ValueError, "texts and sources differ in length, or cls is not a tuple type");
        return NULL;
    }
    PyObject *out = PyList_New(n);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *raw = PyList_GET_ITEM(texts, i), *v[12];
        if (!PyUnicode_Check(raw)) {
            PyErr_SetString(PyExc_TypeError, "a block's text is not a str");
            goto error;
        }
        if (facts_of(raw, v) < 0)
            goto error;
        PyObject *f = ((PyTypeObject *)cls)->tp_alloc((PyTypeObject *)cls, 11);
        PyObject *counts = PyTuple_Pack(3, v[7], v[8], v[9]);
        PyObject *found = PyDict_GetItemWithError(links, PyList_GET_ITEM(sources, i));  /* borrowed */
        Py_ssize_t link = found == NULL ? 0 : PyLong_AsSsize_t(found);
        Py_ssize_t letters = PyLong_AsSsize_t(v[6]);
        PyObject *ll = PyErr_Occurred() ? NULL : PyLong_FromSsize_t(link < letters ? link : letters);
        if (f == NULL || counts == NULL || ll == NULL) {
            Py_XDECREF(f);
            Py_XDECREF(counts);
            Py_XDECREF(ll);
            for (int k = 0; k < 12; k++)
                Py_DECREF(v[k]);
            goto error;
        }
        for (int k = 0; k < 11; k++) {
            int at = FACTS_ORDER[k];
            PyTuple_SET_ITEM(f, k, at == -1 ? ll : at == -2 ? counts : Py_NewRef(v[at]));
        }
        for (int k = 0; k < 12; k++)
            Py_DECREF(v[k]);
        PyList_SET_ITEM(out, i, f);
    }
    return out;
error:
    Py_DECREF(out);
    return NULL;
}

/* names[bisect_right(below, v) - 1] as a new reference (below[0] is -inf) */
static PyObject *
bucket_name(PyObject *names, const double *below, Py_ssize_t n_below, double v)
{
    Py_ssize_t lo = 0, hi = n_below;
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) / 2;
        if (v < below[mid])
            hi = mid;
        else
            lo = mid + 1;
    }
    PyObject *name = PyList_GET_ITEM(names, lo - 1);
    Py_INCREF(name);
    return name;
}

static double *
doubles(PyObject *seq, Py_ssize_t *n)
{
    PyObject *fast = PySequence_Fast(seq, "thresholds must be a sequence");
    if (fast == NULL)
        return NULL;
    *n = PySequence_Fast_GET_SIZE(fast);
    double *out = PyMem_New(double, *n > 0 ? *n : 1);
    if (out == NULL) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < *n; i++) {
        out[i] = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, i));
        if (out[i] == -1.0 && PyErr_Occurred()) {
            PyMem_Free(out);
            Py_DECREF(fast);
            return NULL;
        }
    }
    Py_DECREF(fast);
    return out;
}

/* the attributes of a block's facts the content family reads */
enum { A_TEXT, A_ALPHA, A_DIGITS, A_UPPER, A_WORDS, A_TOKENS, A_COUNTS, A_LOWER, A_SENTENCES, N_ATTRS };
static const char *ATTR_NAMES[N_ATTRS] = {"text", "alpha", "digits", "upper", "words", "tokens", "token_counts",
                                          "lower", "sentences"};
static PyObject *ATTRS[N_ATTRS];
/* begin.upper, begin.lower, begin.digit, begin.other, end.stop, end.colon, end.other */
static PyObject *FIXED[7];
/* the name lists of the ``names`` argument, in order */
enum { N_ALPHA, N_DIGIT, N_UPPER, N_PUNCT, N_SPACE, N_CHARS, N_TOKENS, N_UI, N_AU, N_DG, N_STOP, N_STOPS,
       N_SENTENCES, N_SENTENCE_LEN, N_NAMES };

static int
add(PyObject *out, PyObject *name)
{
    if (name == NULL)
        return -1;
    int r = PyList_Append(out, name);
    Py_DECREF(name);
    return r;
}

static int
content_block(PyObject *out, PyObject *f, const WordTable *stop, const Strip *st,
              PyObject **names, const double *R, Py_ssize_t nR, const double *C, Py_ssize_t nC, PyObject *end_stop)
{
    PyObject *v[N_ATTRS] = {NULL};
    int ok = -1;
    for (int k = 0; k < N_ATTRS; k++) {
        v[k] = PyObject_GetAttr(f, ATTRS[k]);
        if (v[k] == NULL)
            goto done;
    }
    PyObject *text = v[A_TEXT];
    if (!PyUnicode_Check(text) || !PyUnicode_Check(v[A_LOWER])
            || !PyTuple_Check(v[A_COUNTS]) || PyTuple_GET_SIZE(v[A_COUNTS]) != 3) {
        PyErr_SetString(PyExc_TypeError, "unexpected block facts");
        goto done;
    }
    long alpha = PyLong_AsLong(v[A_ALPHA]), digit = PyLong_AsLong(v[A_DIGITS]), upper = PyLong_AsLong(v[A_UPPER]);
    long words = PyLong_AsLong(v[A_WORDS]), sentences = PyLong_AsLong(v[A_SENTENCES]);
    if (PyErr_Occurred())
        goto done;
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    long space = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        space += PyUnicode_READ(kind, data, i) == ' ';
    double nc = n ? (double)n : 1.0;
    long punct = (long)(n ? n : 1) - alpha - digit - space;
    if (add(out, bucket_name(names[N_ALPHA], R, nR, alpha / nc)) < 0
            || add(out, bucket_name(names[N_DIGIT], R, nR, digit / nc)) < 0
            || add(out, bucket_name(names[N_UPPER], R, nR, upper / nc)) < 0
            || add(out, bucket_name(names[N_PUNCT], R, nR, punct / nc)) < 0
            || add(out, bucket_name(names[N_SPACE], R, nR, space / nc)) < 0
            || add(out, bucket_name(names[N_CHARS], C, nC, (double)n)) < 0
            || add(out, bucket_name(names[N_TOKENS], C, nC, (double)words)) < 0)
        goto done;
    Py_ssize_t nt = PyLong_AsSsize_t(v[A_TOKENS]);
    if (nt == -1 && PyErr_Occurred())
        goto done;
    if (nt) {
        long ui = PyLong_AsLong(PyTuple_GET_ITEM(v[A_COUNTS], 0));
        long au = PyLong_AsLong(PyTuple_GET_ITEM(v[A_COUNTS], 1));
        long dg = PyLong_AsLong(PyTuple_GET_ITEM(v[A_COUNTS], 2));
        if (PyErr_Occurred())
            goto done;
        Py_ssize_t n_stop = 0;  /* the tokens of lower, stripped, in the stop-word table */
        lookup_tokens(v[A_LOWER], st, stop, PY_SSIZE_T_MAX, &n_stop, NULL, NULL, NULL);
        if (add(out, bucket_name(names[N_UI], R, nR, (double)ui / (double)nt)) < 0
                || add(out, bucket_name(names[N_AU], R, nR, (double)au / (double)nt)) < 0
                || add(out, bucket_name(names[N_DG], R, nR, (double)dg / (double)nt)) < 0
                || add(out, bucket_name(names[N_STOP], R, nR, (double)n_stop / (double)nt)) < 0
                || add(out, bucket_name(names[N_STOPS], C, nC, (double)n_stop)) < 0)
            goto done;
    }
    if (add(out, bucket_name(names[N_SENTENCES], C, nC, (double)sentences)) < 0
            || add(out, bucket_name(names[N_SENTENCE_LEN], C, nC,
                                    sentences ? (double)words / (double)sentences : 0.0)) < 0)
        goto done;
    /* begin.upper / lower / digit / other, end.stop / colon / other (str methods of one
       character; an empty text ends with "", which is in ":：") */
    int begin = 3, end = 1;
    if (n) {
        Py_UCS4 first = PyUnicode_READ(kind, data, 0), last = PyUnicode_READ(kind, data, n - 1);
        begin = Py_UNICODE_ISUPPER(first) ? 0 : Py_UNICODE_ISLOWER(first) ? 1 : Py_UNICODE_ISDIGIT(first) ? 2 : 3;
        end = PyUnicode_FindChar(end_stop, last, 0, PyUnicode_GET_LENGTH(end_stop), 1) >= 0 ? 0
              : (last == ':' || last == 0xFF1A) ? 1 : 2;
    }
    if (PyList_Append(out, FIXED[begin]) < 0 || PyList_Append(out, FIXED[4 + end]) < 0)
        goto done;
    ok = 0;
done:
    for (int k = 0; k < N_ATTRS; k++)
        Py_XDECREF(v[k]);
    return ok;
}

static PyObject *
content(PyObject *self, PyObject *args)
{
    PyObject *own, *facts, *capsule, *chars, *names, *ratios, *counts, *end_stop;
    if (!PyArg_ParseTuple(args, "O!O!OUO!OOU", &PyList_Type, &own, &PyList_Type, &facts, &capsule, &chars,
                          &PyTuple_Type, &names, &ratios, &counts, &end_stop))
        return NULL;
    const WordTable *stop = PyCapsule_GetPointer(capsule, WORD_TABLE);
    if (stop == NULL)
        return NULL;
    Strip st;
    strip_of(chars, &st);
    if (PyList_GET_SIZE(own) != PyList_GET_SIZE(facts) || PyTuple_GET_SIZE(names) != N_NAMES) {
        PyErr_SetString(PyExc_ValueError, "own, facts and names do not match");
        return NULL;
    }
    PyObject *lists[N_NAMES];
    for (int k = 0; k < N_NAMES; k++) {
        lists[k] = PyTuple_GET_ITEM(names, k);
        if (!PyList_Check(lists[k])) {
            PyErr_SetString(PyExc_TypeError, "names must be lists");
            return NULL;
        }
    }
    Py_ssize_t nR, nC;
    double *R = doubles(ratios, &nR);
    if (R == NULL)
        return NULL;
    double *C = doubles(counts, &nC);
    if (C == NULL) {
        PyMem_Free(R);
        return NULL;
    }
    for (int k = 0; k < N_NAMES; k++)
        if (PyList_GET_SIZE(lists[k]) != ((k == N_CHARS || k == N_TOKENS || k >= N_STOPS) && k != N_STOP ? nC : nR)) {
            PyErr_SetString(PyExc_ValueError, "a name list does not match its thresholds");
            goto error;
        }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(facts); i++) {
        PyObject *out = PyList_GET_ITEM(own, i);
        if (!PyList_Check(out)) {
            PyErr_SetString(PyExc_TypeError, "own must hold lists");
            goto error;
        }
        if (content_block(out, PyList_GET_ITEM(facts, i), stop, &st, lists, R, nR, C, nC, end_stop) < 0)
            goto error;
    }
    PyMem_Free(R);
    PyMem_Free(C);
    Py_RETURN_NONE;
error:
    PyMem_Free(R);
    PyMem_Free(C);
    return NULL;
}

/* numpy's pairwise summation (DOUBLE_pairwise_sum of numpy/_core/src/umath/loops_utils.h.src)
   of each column of the rows ``ids[0..n)`` of ``w`` (``cols`` columns) into ``res[0..cols)``:
   all columns in one pass over the rows, each column's additions in numpy's order.
   ``scratch``: room for 8 * cols doubles (numpy's 8 partial sums), ``levels`` for 64 *
   cols (a row of sums per level of halving, from this one down) */
static void
pairwise(const double *w, Py_ssize_t cols, const Py_ssize_t *ids, Py_ssize_t n, double *res, double *scratch,
         double *levels)
{
    if (n < 8) {
        for (Py_ssize_t c = 0; c < cols; c++)
            res[c] = 0.;
        for (Py_ssize_t i = 0; i < n; i++) {
            const double *row = w + ids[i] * cols;
            for (Py_ssize_t c = 0; c < cols; c++)
                res[c] += row[c];
        }
        return;
    }
    if (n <= 128) {
        double *r = scratch;  /* r[j * cols + c]: numpy's r[j] of column c */
        Py_ssize_t i;
        for (int j = 0; j < 8; j++)
            memcpy(r + j * cols, w + ids[j] * cols, cols * sizeof(double));
        for (i = 8; i < n - (n % 8); i += 8)
            for (int j = 0; j < 8; j++) {
                const double *row = w + ids[i + j] * cols;
                double *rj = r + j * cols;
                for (Py_ssize_t c = 0; c < cols; c++)
                    rj[c] += row[c];
            }
        for (Py_ssize_t c = 0; c < cols; c++)
            res[c] = ((r[c] + r[cols + c]) + (r[2 * cols + c] + r[3 * cols + c]))
                     + ((r[4 * cols + c] + r[5 * cols + c]) + (r[6 * cols + c] + r[7 * cols + c]));
        for (; i < n; i++) {
            const double *row = w + ids[i] * cols;
            for (Py_ssize_t c = 0; c < cols; c++)
                res[c] += row[c];
        }
        return;
    }
    Py_ssize_t n2 = n / 2;
    n2 -= n2 % 8;
    pairwise(w, cols, ids, n2, res, scratch, levels + cols);
    pairwise(w, cols, ids + n2, n - n2, levels, scratch, levels + cols);  /* the second half's sums */
    for (Py_ssize_t c = 0; c < cols; c++)
        res[c] = res[c] + levels[c];
}

/* a C-contiguous 2-D float64 buffer of ``obj`` (writable with ``writable``), or -1 */
static int
matrix(PyObject *obj, Py_buffer *view, int writable)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0)) < 0)
        return -1;
    if (view->ndim != 2 || view->itemsize != sizeof(double) || view->format == NULL || strcmp(view->format, "d")) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_TypeError, "expected a C-contiguous 2-D float64 array");
        return -1;
    }
    return 0;
}

/* the rows of the feature strings a call of feature_sums has looked up, by the strings'
   addresses (open addressing, at most half full): each string object is looked up in
   ``index`` once a call, however many blocks hold it */
typedef struct {
    PyObject **keys;
    Py_ssize_t *rows;
    Py_ssize_t mask, used;
} Memo;

static Py_ssize_t
memo_slot(const Memo *t, PyObject *key)
{
    size_t h = ((size_t)key >> 4) * (size_t)0x9E3779B97F4A7C15ull;
    Py_ssize_t i = (Py_ssize_t)((h >> 16) & (size_t)t->mask);
    while (t->keys[i] != NULL && t->keys[i] != key)
        i = (i + 1) & t->mask;
    return i;
}

/* an empty table of ``size`` slots (a power of two); -1 out of memory */
static int
memo_init(Memo *t, Py_ssize_t size)
{
    t->keys = PyMem_Calloc(size, sizeof(PyObject *));
    t->rows = PyMem_New(Py_ssize_t, size);
    t->mask = size - 1;
    t->used = 0;
    if (t->keys == NULL || t->rows == NULL) {
        PyMem_Free(t->keys);
        PyMem_Free(t->rows);
        t->keys = NULL;
        t->rows = NULL;
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void
memo_free(Memo *t)
{
    PyMem_Free(t->keys);
    PyMem_Free(t->rows);
}

/* ``t`` with twice the slots; -1 out of memory (``t`` kept) */
static int
memo_grow(Memo *t)
{
    Memo bigger;
    if (memo_init(&bigger, 2 * (t->mask + 1)) < 0)
        return -1;
    for (Py_ssize_t i = 0; i <= t->mask; i++)
        if (t->keys[i] != NULL) {
            Py_ssize_t j = memo_slot(&bigger, t->keys[i]);
            bigger.keys[j] = t->keys[i];
            bigger.rows[j] = t->rows[i];
        }
    bigger.used = t->used;
    memo_free(t);
    *t = bigger;
    return 0;
}

/* the weight rows of the features of ``feats`` (a list of str) into ``ids``: 0 for a
   feature not in ``index``, each string object looked up once (``memo``); -1 on an
   error (a row out of range among them) */
static int
rows_of(PyObject *feats, PyObject *index, Py_ssize_t n_rows, Py_ssize_t *ids, Memo *memo)
{
    Py_ssize_t n = PyList_GET_SIZE(feats);
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *feat = PyList_GET_ITEM(feats, k);
        Py_ssize_t slot = memo_slot(memo, feat);
        if (memo->keys[slot] == feat) {
            ids[k] = memo->rows[slot];
            continue;
        }
        PyObject *row = PyDict_GetItemWithError(index, feat);
        Py_ssize_t r = 0;
        if (row != NULL) {
            r = PyLong_AsSsize_t(row);
            if (r == -1 && PyErr_Occurred())
                return -1;
            if (r < 0 || r >= n_rows) {
                PyErr_SetString(PyExc_ValueError, "a feature's row is outside the weights");
                return -1;
            }
        } else if (PyErr_Occurred())
            return -1;
        ids[k] = r;
        memo->keys[slot] = feat;  /* held by ``feats`` for the whole call */
        memo->rows[slot] = r;
        if (2 * ++memo->used > memo->mask && memo_grow(memo) < 0)
            return -1;
    }
    return 0;
}

static PyObject *
feature_sums(PyObject *self, PyObject *args)
{
    PyObject *own, *index, *weights_obj, *out_obj;
    if (!PyArg_ParseTuple(args, "O!O!OO", &PyList_Type, &own, &PyDict_Type, &index, &weights_obj, &out_obj))
        return NULL;
    Py_buffer wv, ov;
    if (matrix(weights_obj, &wv, 0) < 0)
        return NULL;
    if (matrix(out_obj, &ov, 1) < 0) {
        PyBuffer_Release(&wv);
        return NULL;
    }
    Py_ssize_t m = PyList_GET_SIZE(own), cols = wv.shape[1], n_rows = wv.shape[0];
    const double *w = wv.buf;
    double *o = ov.buf;
    Py_ssize_t *ids = NULL, cap = 0;
    double *sums = NULL;
    Memo memo = {NULL, NULL, 0, 0};
    PyObject *result = NULL;
    if (ov.shape[0] != m || ov.shape[1] != cols || n_rows < 1) {
        PyErr_SetString(PyExc_ValueError, "out must have a row per block and the weights' columns");
        goto done;
    }
    if ((sums = PyMem_New(double, (1 + 8 + 64) * cols)) == NULL) {  /* a block's sums, pairwise's room */
        PyErr_NoMemory();
        goto done;
    }
    if (memo_init(&memo, 1024) < 0)
        goto done;
    for (Py_ssize_t i = 0; i < m; i++) {
        PyObject *feats = PyList_GET_ITEM(own, i);
        if (!PyList_Check(feats)) {
            PyErr_SetString(PyExc_TypeError, "own must hold lists");
            goto done;
        }
        Py_ssize_t n = PyList_GET_SIZE(feats);
        if (n > cap) {
            PyMem_Free(ids);
            cap = 2 * n;
            if ((ids = PyMem_New(Py_ssize_t, cap)) == NULL) {
                PyErr_NoMemory();
                goto done;
            }
        }
        if (rows_of(feats, index, n_rows, ids, &memo) < 0)
            goto done;
        pairwise(w, cols, ids, n, sums, sums + cols, sums + 9 * cols);
        for (Py_ssize_t c = 0; c < cols; c++)  /* reduceat: the first row (0), plus the rest */
            o[i * cols + c] = w[c] + sums[c];
    }
    result = Py_NewRef(Py_None);
done:
    PyMem_Free(ids);
    PyMem_Free(sums);
    memo_free(&memo);
    PyBuffer_Release(&wv);
    PyBuffer_Release(&ov);
    return result;
}

/* ``v[0..n)`` divided by its largest entry (left as it is when that is not positive) */
static void
rescale(double *v, Py_ssize_t n)
{
    double mx = 0.;
    for (Py_ssize_t k = 0; k < n; k++)
        if (v[k] > mx)
            mx = v[k];
    if (mx > 0.)
        for (Py_ssize_t k = 0; k < n; k++)
            v[k] /= mx;
}

static PyObject *
forward_backward(PyObject *self, PyObject *args)
{
    PyObject *u_obj, *t_obj, *out_obj;
    if (!PyArg_ParseTuple(args, "OOO", &u_obj, &t_obj, &out_obj))
        return NULL;
    Py_buffer uv, tv, ov;
    if (matrix(u_obj, &uv, 0) < 0)
        return NULL;
    if (matrix(t_obj, &tv, 0) < 0) {
        PyBuffer_Release(&uv);
        return NULL;
    }
    if (matrix(out_obj, &ov, 1) < 0) {
        PyBuffer_Release(&uv);
        PyBuffer_Release(&tv);
        return NULL;
    }
    Py_ssize_t m = uv.shape[0], n = uv.shape[1];
    const double *u = uv.buf, *t = tv.buf;
    double *p = ov.buf, *beta = NULL;
    PyObject *result = NULL;
    if (tv.shape[0] != n || tv.shape[1] != n || ov.shape[0] != m || ov.shape[1] != n) {
        PyErr_SetString(PyExc_ValueError, "u and out must be blocks x labels, t labels x labels");
        goto done;
    }
    if (m == 0 || n == 0) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    if ((beta = PyMem_New(double, m * n)) == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    /* forward, into out: alpha[i][b] = sum_a alpha[i - 1][a] t[a][b] u[i][b] */
    memcpy(p, u, n * sizeof(double));
    rescale(p, n);
    for (Py_ssize_t i = 1; i < m; i++) {
        for (Py_ssize_t b = 0; b < n; b++) {
            double s = 0.;
            for (Py_ssize_t a = 0; a < n; a++)
                s += p[(i - 1) * n + a] * t[a * n + b];
            p[i * n + b] = s * u[i * n + b];
        }
        rescale(p + i * n, n);
    }
    /* backward: beta[i][a] = sum_b t[a][b] u[i + 1][b] beta[i + 1][b] */
    for (Py_ssize_t b = 0; b < n; b++)
        beta[(m - 1) * n + b] = 1.;
    for (Py_ssize_t i = m - 2; i >= 0; i--) {
        for (Py_ssize_t a = 0; a < n; a++) {
            double s = 0.;
            for (Py_ssize_t b = 0; b < n; b++)
                s += t[a * n + b] * u[(i + 1) * n + b] * beta[(i + 1) * n + b];
            beta[i * n + a] = s;
        }
        rescale(beta + i * n, n);
    }
    for (Py_ssize_t i = 0; i < m; i++) {
        double z = 0.;
        for (Py_ssize_t k = 0; k < n; k++)
            z += p[i * n + k] *= beta[i * n + k];
        for (Py_ssize_t k = 0; k < n; k++)
            p[i * n + k] /= z;
    }
    result = Py_NewRef(Py_None);
done:
    PyMem_Free(beta);
    PyBuffer_Release(&uv);
    PyBuffer_Release(&tv);
    PyBuffer_Release(&ov);
    return result;
}

/* ASCII character classes of Python's re for str patterns: \w, \d, \s */
static int
re_word(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int
re_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

static int
re_space(unsigned char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

static int
re_alpha(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* the length of the run of ASCII digits at b[i] */
static Py_ssize_t
digit_run(const unsigned char *b, Py_ssize_t n, Py_ssize_t i)
{
    Py_ssize_t k = i;
    while (k < n && re_digit(b[k]))
        k++;
    return k - i;
}

/* is b[i] the end of a word (\b after a word character, or the end)? */
static int
word_ends(const unsigned char *b, Py_ssize_t n, Py_ssize_t i)
{
    return i >= n || !re_word(b[i]);
}

/* does a month's abbreviation (jan ... dec, any case) start at b[i]? */
static int
month_at(const unsigned char *b, Py_ssize_t n, Py_ssize_t i)
{
    static const char *months[12] = {"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov",
                                     "dec"};
    if (i + 3 > n)
        return 0;
    char low[3];
    for (int k = 0; k < 3; k++)
        low[k] = (char)(b[i + k] >= 'A' && b[i + k] <= 'Z' ? b[i + k] + 32 : b[i + k]);
    for (int m = 0; m < 12; m++)
        if (low[0] == months[m][0] && low[1] == months[m][1] && low[2] == months[m][2])
            return 1;
    return 0;
}

/* _DATE of features.py matches the ASCII text b[0:n] somewhere (its three alternatives,
   the backtracking of each worked out: a digit run of a bounded length must be the whole
   run, as the character after it must be a separator, white space or a word's end) */
static int
ascii_date(const unsigned char *b, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        if (i > 0 && re_word(b[i - 1]))
            continue;  /* no \b before b[i] */
        if (re_digit(b[i])) {
            Py_ssize_t r = digit_run(b, n, i), j;
            /* \d{1,4}[./-]\d{1,2}[./-]\d{1,4}\b */
            if (r <= 4 && i + r < n && (b[i + r] == '.' || b[i + r] == '/' || b[i + r] == '-')) {
                j = i + r + 1;
                Py_ssize_t r2 = digit_run(b, n, j);
                if (r2 >= 1 && r2 <= 2 && j + r2 < n
                        && (b[j + r2] == '.' || b[j + r2] == '/' || b[j + r2] == '-')) {
                    j += r2 + 1;
                    Py_ssize_t r3 = digit_run(b, n, j);
                    if (r3 >= 1 && r3 <= 4 && word_ends(b, n, j + r3))
                        return 1;
                }
            }
            /* \d{1,2}\s+(?:jan|...|dec) */
            if (r <= 2) {
                j = i + r;
                if (j < n && re_space(b[j])) {
                    while (j < n && re_space(b[j]))
                        j++;
                    if (month_at(b, n, j))
                        return 1;
                }
            }
        }
        else if (month_at(b, n, i)) {
            /* (?:jan|...|dec)[a-z]*\.?\s+\d{1,2}\b */
            Py_ssize_t j = i + 3;
            while (j < n && re_alpha(b[j]))
                j++;
            if (j < n && b[j] == '.')
                j++;
            if (j < n && re_space(b[j])) {
                while (j < n && re_space(b[j]))
                    j++;
                Py_ssize_t r = digit_run(b, n, j);
                if (r >= 1 && r <= 2 && word_ends(b, n, j + r))
                    return 1;
            }
        }
    }
    return 0;
}

/* _TIME of features.py (\b\d{1,2}:\d{2}\b) matches the ASCII text b[0:n] somewhere */
static int
ascii_time(const unsigned char *b, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!re_digit(b[i]) || (i > 0 && re_word(b[i - 1])))
            continue;
        Py_ssize_t r = digit_run(b, n, i);
        if (r <= 2 && i + r < n && b[i + r] == ':' && digit_run(b, n, i + r + 1) == 2
                && word_ends(b, n, i + r + 3))
            return 1;
        i += r - 1;  /* no \b inside the run */
    }
    return 0;
}

static PyObject *
ascii_dates(PyObject *self, PyObject *args)
{
    PyObject *text;
    if (!PyArg_ParseTuple(args, "U", &text))
        return NULL;
    if (!PyUnicode_IS_ASCII(text)) {
        PyErr_SetString(PyExc_ValueError, "ascii_dates reads ASCII texts only");
        return NULL;
    }
    const unsigned char *b = PyUnicode_1BYTE_DATA(text);
    Py_ssize_t n = PyUnicode_GET_LENGTH(text);
    return Py_BuildValue("(OO)", ascii_date(b, n) ? Py_True : Py_False, ascii_time(b, n) ? Py_True : Py_False);
}

/* is ``ch`` a character of re's \w for str patterns (sre's SRE_UNI_IS_WORD)? */
static inline int
is_word_char(Py_UCS4 ch)
{
    if (ch < 128)
        return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_';
    return Py_UNICODE_ISALNUM(ch);
}

static PyObject *
word_hits(PyObject *self, PyObject *args)
{
    PyObject *texts, *words;
    if (!PyArg_ParseTuple(args, "O!O", &PyList_Type, &texts, &words))
        return NULL;
    if (!PyAnySet_Check(words)) {
        PyErr_SetString(PyExc_TypeError, "word_hits: words is a set");
        return NULL;
    }
    int look = PySet_GET_SIZE(words) > 0;
    Py_ssize_t n_texts = PyList_GET_SIZE(texts);
    PyObject *out = PyList_New(n_texts);
    if (out == NULL)
        return NULL;
    for (Py_ssize_t t = 0; t < n_texts; t++) {
        PyObject *text = PyList_GET_ITEM(texts, t);
        if (!PyUnicode_Check(text)) {
            PyErr_SetString(PyExc_TypeError, "word_hits: texts are str");
            goto error;
        }
        int kind = PyUnicode_KIND(text);
        const void *data = PyUnicode_DATA(text);
        Py_ssize_t len = PyUnicode_GET_LENGTH(text), n = 0, hits = 0, i = 0;
        while (i < len) {
            if (!is_word_char(PyUnicode_READ(kind, data, i))) {
                i++;
                continue;
            }
            Py_ssize_t start = i;
            while (i < len && is_word_char(PyUnicode_READ(kind, data, i)))
                i++;
            n++;
            if (look) {
                PyObject *word = PyUnicode_Substring(text, start, i);
                int in = word == NULL ? -1 : PySet_Contains(words, word);
                Py_XDECREF(word);
                if (in < 0)
                    goto error;
                hits += in;
            }
        }
        PyObject *pair = Py_BuildValue("(nn)", n, hits);
        if (pair == NULL)
            goto error;
        PyList_SET_ITEM(out, t, pair);
    }
    return out;
error:
    Py_DECREF(out);
    return NULL;
}

static PyObject *WORDS, *LINK_LETTERS, *LETTERS, *TEXT;  /* the _Facts fields shallow reads, interned */

/* an int field of a block's facts as a C integer (-1 with an exception set) */
static Py_ssize_t
int_field(PyObject *f, PyObject *name)
{
    PyObject *v = PyObject_GetAttr(f, name);
    if (v == NULL)
        return -1;
    Py_ssize_t n = PyLong_Check(v) ? PyLong_AsSsize_t(v) : -1;
    Py_DECREF(v);
    if (n < 0 && !PyErr_Occurred())
        PyErr_SetString(PyExc_TypeError, "a count of the facts is not a non-negative int");
    return n;
}

static PyObject *
shallow(PyObject *self, PyObject *args)
{
    PyObject *own, *facts, *names, *thresholds;
    if (!PyArg_ParseTuple(args, "O!O!O!O!", &PyList_Type, &own, &PyList_Type, &facts, &PyTuple_Type, &names,
                          &PyTuple_Type, &thresholds))
        return NULL;
    Py_ssize_t m = PyList_GET_SIZE(facts);
    if (PyList_GET_SIZE(own) != m || PyTuple_GET_SIZE(names) != 4 || PyTuple_GET_SIZE(thresholds) != 4) {
        PyErr_SetString(PyExc_ValueError, "shallow: own, facts, names and thresholds do not match");
        return NULL;
    }
    PyObject *lists[4];
    double *below[4] = {NULL, NULL, NULL, NULL};
    Py_ssize_t n_below[4];
    Py_ssize_t *words = PyMem_New(Py_ssize_t, m + 2);  /* words[i + 1]: block i's; 0 past the ends */
    PyObject *result = NULL;
    if (words == NULL)
        return PyErr_NoMemory();
    for (int k = 0; k < 4; k++) {
        lists[k] = PyTuple_GET_ITEM(names, k);
        if ((below[k] = doubles(PyTuple_GET_ITEM(thresholds, k), &n_below[k])) == NULL)
            goto done;
        if (!PyList_Check(lists[k]) || PyList_GET_SIZE(lists[k]) != n_below[k] || n_below[k] < 1) {
            PyErr_SetString(PyExc_ValueError, "shallow: a name list does not match its thresholds");
            goto done;
        }
    }
    words[0] = words[m + 1] = 0;
    for (Py_ssize_t i = 0; i < m; i++)
        if ((words[i + 1] = int_field(PyList_GET_ITEM(facts, i), WORDS)) < 0)
            goto done;
    for (Py_ssize_t i = 0; i < m; i++) {
        PyObject *f = PyList_GET_ITEM(facts, i), *out = PyList_GET_ITEM(own, i);
        if (!PyList_Check(out)) {
            PyErr_SetString(PyExc_TypeError, "own must hold lists");
            goto done;
        }
        Py_ssize_t links = int_field(f, LINK_LETTERS), letters = links < 0 ? -1 : int_field(f, LETTERS);
        if (letters < 0)
            goto done;
        PyObject *text = PyObject_GetAttr(f, TEXT);
        if (text == NULL)
            goto done;
        Py_ssize_t chars = PyUnicode_Check(text) ? PyUnicode_GET_LENGTH(text) : -1;
        Py_DECREF(text);
        if (chars < 0) {
            PyErr_SetString(PyExc_TypeError, "a block's text is not a str");
            goto done;
        }
        Py_ssize_t w = words[i + 1], pw = words[i], nw = words[i + 2], lines = (chars + 79) / 80;
        double v[4] = {letters ? (double)links / (double)letters : 0.0,
                       (double)w / (double)(lines > 1 ? lines : 1),
                       w ? (double)pw / (double)w : 10.0,
                       nw ? (double)w / (double)nw : 10.0};
        for (int k = 0; k < 4; k++)
            if (add(out, bucket_name(lists[k], below[k], n_below[k], v[k])) < 0)
                goto done;
    }
    result = Py_NewRef(Py_None);
done:
    for (int k = 0; k < 4; k++)
        PyMem_Free(below[k]);
    PyMem_Free(words);
    return result;
}

static PyObject *INLINES;  /* "inlines", interned */

/* the elements two chains (tuples) share from their start, compared by identity */
static Py_ssize_t
shared_prefix(PyObject *a, PyObject *b)
{
    Py_ssize_t n = Py_MIN(PyTuple_GET_SIZE(a), PyTuple_GET_SIZE(b)), k = 0;
    while (k < n && PyTuple_GET_ITEM(a, k) == PyTuple_GET_ITEM(b, k))
        k++;
    return k;
}

/* the line breaks (``br`` itself) among a block's inline content */
static Py_ssize_t
breaks(PyObject *block, PyObject *br)
{
    PyObject *inlines = PyObject_GetAttr(block, INLINES);
    if (inlines == NULL)
        return -1;
    if (!PyList_Check(inlines)) {
        Py_DECREF(inlines);
        PyErr_SetString(PyExc_TypeError, "a block's inlines are not a list");
        return -1;
    }
    Py_ssize_t n = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(inlines); i++)
        n += PyList_GET_ITEM(inlines, i) == br;
    Py_DECREF(inlines);
    return n;
}

static PyObject *
splits(PyObject *self, PyObject *args)
{
    PyObject *own, *blocks, *contexts, *split_names, *thresholds, *br_names, *counts, *br;
    if (!PyArg_ParseTuple(args, "O!O!O!OOO!OO", &PyList_Type, &own, &PyList_Type, &blocks, &PyList_Type, &contexts,
                          &split_names, &thresholds, &PyList_Type, &br_names, &counts, &br))
        return NULL;
    Py_ssize_t m = PyList_GET_SIZE(own), nC;
    if (PyList_GET_SIZE(blocks) != m || PyList_GET_SIZE(contexts) != m) {
        PyErr_SetString(PyExc_ValueError, "splits: own, blocks and contexts do not match");
        return NULL;
    }
    double *C = doubles(counts, &nC);
    if (C == NULL)
        return NULL;
    PyObject *result = NULL, *prev_chain = NULL, *prev_names = NULL, *empty = PyTuple_New(0);
    if (empty == NULL)
        goto done;
    if (PyList_GET_SIZE(br_names) != nC || nC < 1) {
        PyErr_SetString(PyExc_ValueError, "splits: the names of split.br do not match the thresholds");
        goto done;
    }
    prev_chain = Py_NewRef(empty);
    prev_names = Py_NewRef(empty);
    for (Py_ssize_t i = 0; i < m; i++) {
        PyObject *out = PyList_GET_ITEM(own, i), *c = PyList_GET_ITEM(contexts, i);
        if (!PyList_Check(out) || !PyTuple_Check(c) || PyTuple_GET_SIZE(c) < 2 || !PyTuple_Check(PyTuple_GET_ITEM(c, 0))
                || !PyTuple_Check(PyTuple_GET_ITEM(c, 1))) {
            PyErr_SetString(PyExc_TypeError, "splits: own holds lists, contexts tuples of tuples");
            goto done;
        }
        PyObject *chain = PyTuple_GET_ITEM(c, 0), *names = PyTuple_GET_ITEM(c, 1);
        Py_ssize_t k = shared_prefix(chain, prev_chain);
        PyObject *closed = PyTuple_GetSlice(prev_names, k, PY_SSIZE_T_MAX);
        PyObject *opened = closed ? PyTuple_GetSlice(names, k, PY_SSIZE_T_MAX) : NULL;
        PyObject *found = opened ? PyObject_CallFunctionObjArgs(split_names, closed, opened, thresholds, NULL) : NULL;
        Py_XDECREF(closed);
        Py_XDECREF(opened);
        if (found == NULL)
            goto done;
        PyObject *r = PySequence_InPlaceConcat(out, found);
        Py_DECREF(found);
        if (r == NULL)
            goto done;
        Py_DECREF(r);
        Py_ssize_t n_br = breaks(PyList_GET_ITEM(blocks, i), br);
        if (n_br < 0 || add(out, bucket_name(br_names, C, nC, (double)n_br)) < 0)
            goto done;
        Py_SETREF(prev_chain, Py_NewRef(chain));
        Py_SETREF(prev_names, Py_NewRef(names));
    }
    result = Py_NewRef(Py_None);
done:
    Py_XDECREF(prev_chain);
    Py_XDECREF(prev_names);
    Py_XDECREF(empty);
    PyMem_Free(C);
    return result;
}

static PyMethodDef methods[] = {
    {"text_facts", text_facts, METH_VARARGS,
     "text_facts(raw) -> (text, lower, tokens, alpha, digits, upper, alnum, upper_initial, all_upper, "
     "with_digit, words, sentences): see kitten/boilerplate/features.py"},
    {"ascii_dates", ascii_dates, METH_VARARGS,
     "ascii_dates(text) -> (date, time): does _DATE, does _TIME of kitten/boilerplate/features.py match "
     "the ASCII text somewhere"},
    {"block_facts", block_facts, METH_VARARGS,
     "block_facts(texts, sources, links, cls) -> list: each block's _Facts, "
     "see _block_facts in kitten/boilerplate/features.py"},
    {"content", content, METH_VARARGS,
     "content(own, facts, stop, strip, names, ratios, counts, end_stop): the content family up to end.*, "
     "see kitten/boilerplate/features.py"},
    {"word_table", word_table, METH_VARARGS,
     "word_table(words) -> capsule: the word table of a dict str -> int, for stop_groups and content"},
    {"stop_groups", stop_groups, METH_VARARGS,
     "stop_groups(facts, table, strip, limit) -> (counts, n): the first limit stripped tokens of the blocks' "
     "lower texts, how many, and how many have each value of the word table (in the order values first come)"},
    {"feature_sums", feature_sums, METH_VARARGS,
     "feature_sums(own, index, weights, out): each block's sum of its features' weight rows, "
     "as numpy's add.reduceat adds them, see Scorer.sums in kitten/boilerplate/crf.py"},
    {"forward_backward", forward_backward, METH_VARARGS,
     "forward_backward(u, t, out): each block's label marginals from its state and the transition "
     "potentials, see Scorer.marginals in kitten/boilerplate/crf.py"},
    {"word_hits", word_hits, METH_VARARGS,
     "word_hits(texts, words) -> list: each text's words (runs of \\w) and those in the set words, "
     "see _word_hits in kitten/boilerplate/features.py"},
    {"shallow", shallow, METH_VARARGS,
     "shallow(own, facts, names, thresholds): the shallow family's features of each block, "
     "see _shallow in kitten/boilerplate/features.py"},
    {"splits", splits, METH_VARARGS,
     "splits(own, blocks, contexts, split_names, thresholds, br_names, counts, br): the split family's "
     "features of each block, see _splits in kitten/boilerplate/features.py"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_facts", "The boilerplate gate's per-block text facts in C.", -1, methods,
};

PyMODINIT_FUNC
PyInit__facts(void)
{
    if ((LOWER = PyUnicode_InternFromString("lower")) == NULL || (WORDS = PyUnicode_InternFromString("words")) == NULL
            || (LINK_LETTERS = PyUnicode_InternFromString("link_letters")) == NULL
            || (LETTERS = PyUnicode_InternFromString("letters")) == NULL
            || (TEXT = PyUnicode_InternFromString("text")) == NULL
            || (INLINES = PyUnicode_InternFromString("inlines")) == NULL)
        return NULL;
    for (int k = 0; k < N_ATTRS; k++)
        if ((ATTRS[k] = PyUnicode_InternFromString(ATTR_NAMES[k])) == NULL)
            return NULL;
    const char *fixed[7] = {"begin.upper", "begin.lower", "begin.digit", "begin.other", "end.stop", "end.colon",
                            "end.other"};
    for (int k = 0; k < 7; k++)
        if ((FIXED[k] = PyUnicode_InternFromString(fixed[k])) == NULL)
            return NULL;
    return PyModule_Create(&module);
}
