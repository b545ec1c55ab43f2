"""Result keys derived from the measurements, added to the first stage's
keys:

  chN.KERNEL.SIZE.x_cublas   how many times its cuBLAS baseline is faster
                             (the ratio of the two times)
  chN.main                   chapter N's headline kernel (its manifest)
  chN.lab_hours, chN.lab_speed_pct, labs.rows, labs.hours
                             the labs (manifest fields lab, lab_kernel,
                             lab_hours, lab_needs): each lab's hours,
                             the rows of the table of labs, their sum
  chN.needs                  the compute capability chapter N's
                             programs need: "8.0 or newer", "9.0 only"
  chN.SIZE.speedup           chapter N's headline kernel over the
                             previous chapter's
  chN.KERNEL.ncu.NAME        Nsight Compute counters (RESULTSDIR/ncu-chN.csv,
                             whose first column names the kernel entry;
                             KERNEL.SIZE for the manifest's profile_at)
  chN.KERNEL.sass.OPCODE     instructions in the machine code
                             (OUTDIR/sass-P.csv, or RESULTSDIR's for a
                             program this build has not compiled;
                             lds128 for LDS.128, and for Turing's
                             LDS.U.128: the pieces U and SYS, the
                             defaults that Turing spells out, are
                             dropped)
  chN.micro.NAME.COLUMN      chapter N's microbenchmark, one key per
                             numeric column of its row NAME: for
                             chapter 10 an instruction's rate (.tflops,
                             .tflops_min, .tflops_max) and the number
                             of timed runs (.runs); .spread_pct where
                             the row has quartiles of its times; an
                             .error as the harness's errors are written
                             (RESULTSDIR/micro-chN.csv)
  chN.KERNEL.SIZE.tflops     a tuning sweep's rows (RESULTSDIR/sweep-chN.csv),
  chN.KERNEL.SIZE.pct_cublas  as the chapter's own
  chN.emu.smsS_smemB.KERNEL.SIZE.tflops, .pct_cublas, .spread_pct,
  .cublas_tflops, .check     a kernel run as on a smaller GPU
                             (RESULTSDIR/emulated-chN.csv)
  chN.exE.KERNEL.SIZE.tflops, .pct_cublas, .error, .max_error, .check,
  .cublas_tflops, .spread_pct
                             a worked answer's changed program
                             (RESULTSDIR/answers-chN.csv, rows "run");
                             chN.exE.before.KERNEL.SIZE.* the chapter's
                             own program in the same call (rows
                             "before"), and where both ran,
                             chN.exE.KERNEL.SIZE.change_pct (speed, in %)
                             and .error_ratio (after over before)
  chN.exE.KERNEL.checks, .failed, .failed_shapes
                             its checks at the test shapes (rows
                             "check"): how many, how many wrong or
                             ended without a result, and the shapes
                             that were ("none")
  chN.exE.KERNEL.SIZE.runs, .runs_failed
                             its repeated runs (rows "repeat"): how
                             many, how many wrong or without a result
  chN.exE.KERNEL.ncu.NAME    its counters (RESULTSDIR/answers-ncu-chN.csv,
                             chN.exE.before.KERNEL.ncu.NAME for ./P's),
                             named as the chapter's own
  chN.exE.micro.NAME.COLUMN  its microbenchmark's rows
                             (RESULTSDIR/answers-micro-chN.csv)
  chN.exE.TOOL.hazards, .errors, .warnings, .pairs, .occurrences, .check
                             what compute-sanitizer's TOOL reported
                             (RESULTSDIR/answers-san-chN.csv): racecheck's
                             summary, the racing pairs of instructions it
                             listed and how often they raced in all,
                             and the program's own verdict
  cublas.SIZE.ms_min, .ms_max, .runs, .tflops_min, .tflops_max,
    .range_pct (cuBLAS FP32 over every program run and sweep of the
    results; cublas_tf32.SIZE.* and cublas_bf16.SIZE.* the same)
                             cuBLAS's median times at SIZE^3, every one
                             the results hold (beside each kernel of
                             each run, and chapter 0's cuBLAS timed as
                             a kernel): .runs counts them
  cublas.runs_rows           the rows of chapter 0's table of them
  dev.NAME                   the GPU's limits (registers, threads,
                             warps and blocks per SM, shared memory per
                             SM and per block, FP32 lanes, L2 in MiB):
                             from RESULTSDIR/ceilings.csv where it has
                             the column, else from the device
                             attributes that Nsight Compute recorded,
                             else derived (FP32 lanes from the peak);
                             absent when none has it

The files are read in the order more-keys read them, and every key is
set in the order awk set it, so that where two set one key the same one
wins.  awk's comparisons are kept: a field compares as a number with a
number only where it looks like one, and a field of a line that holds a
quoted field (Nsight Compute's pages, the answers' options, the sass
counts) is a plain string, which compares as text (csv.awk's csv_split
takes those lines apart by hand).
"""
import os
import re

from . import csvio, runs
from . import keys as K
from .awk import fmt, isnum, looks_numeric, num, numstr, rawstr

# ---------------------------------------------------------------- awk's ways


class Str(str):
    """A field of a quoted line: a string that never compares as a number."""


def table(path):
    """csvio.read, with the fields of every quoted line made Str."""
    t = csvio.read(path)
    with open(path, encoding='utf-8', errors='replace') as f:
        lines = f.read().split('\n')[1:]
    for i, row in enumerate(t.rows):
        if '"' in lines[i]:
            for c in row:
                row[c] = Str(row[c])
    return t


def _numeric(v):
    """Whether awk compares v as a number (a number, or a strnum field
    that looks like one)."""
    if isinstance(v, (int, float)):
        return True
    return not isinstance(v, Str) and looks_numeric(v)


def _cmp(a, b):
    if _numeric(a) and _numeric(b):
        x, y = num(a), num(b)
    else:
        x, y = rawstr(a), rawstr(b)
    return (x > y) - (x < y)


def gt(a, b):
    return _cmp(a, b) > 0


def eq(a, b):
    return _cmp(a, b) == 0


def size_of(r):
    """A row's size part of a key (keys.size)."""
    return K.size(r['m'], r['n'], r['k'])


def chapter_of(f):
    f = re.sub(r'^.*/', '', f, count=1, flags=re.S)
    f = re.sub(r'^(answers-)?(ncu-|sass-|micro-|sweep-|san-|emulated-|clock-)?ch',
               '', f, count=1)
    return re.sub(r'[^0-9].*$', '', f, count=1, flags=re.S)


def spread_pct(ms, q1, q3):
    return 50 * (num(q3) - num(q1)) / num(ms)


def _put_spread(keys, p, r):
    if gt(r['ms'], 0) and r['ms_q3'] != '':
        keys.put(p + 'spread_pct', spread_pct(r['ms'], r['ms_q1'],
                                              r['ms_q3']), '%.1f')


# a field's text that micro rows turn into keys
_MEASURE = re.compile(r'^-?[0-9.]+([eE][-+]?[0-9]+)?$')


class State:
    """What more-keys' awk kept between files (its END's inputs)."""

    def __init__(self, man):
        self.man = man
        self.ceil_dev, self.ncu_dev, self.lanes = {}, {}, 0
        self.main_row, self.rate, self.sizes = set(), {}, {}
        self.cub_runs, self.cub_min, self.cub_max = {}, {}, {}
        self.a_checks, self.a_failed, self.a_shapes = {}, {}, {}
        self.a_runs, self.a_runs_failed = {}, {}
        self.b_tf, self.b_err, self.r_tf, self.r_err = {}, {}, {}, {}
        self.sass_n = {}

    def cublas_time(self, b, sz, t):
        bs = (b, sz)
        self.cub_runs[bs] = self.cub_runs.get(bs, 0) + 1
        if bs not in self.cub_min or t < self.cub_min[bs]:
            self.cub_min[bs] = t
        if bs not in self.cub_max or t > self.cub_max[bs]:
            self.cub_max[bs] = t

    def cublas_run(self, r):
        """A row's cuBLAS baseline at a cube, and cuBLAS timed as a
        kernel (its own baseline)."""
        b = r['baseline']
        if (not re.match(r'cublas', b) or not gt(r['cublas_ms'], 0)
                or not eq(r['m'], r['n']) or not eq(r['n'], r['k'])):
            return
        sz = r['m']
        self.cublas_time(b, sz, num(r['cublas_ms']))
        if eq(r['kernel'], b) and gt(r['ms'], 0):
            self.cublas_time(b, sz, num(r['ms']))


# --------------------------------------------------------- the GPU's ceilings

DEV_COLS = ('regs_per_sm threads_per_sm warps_per_sm blocks_per_sm '
            'smem_per_sm smem_per_block smem_per_block_optin '
            'smem_reserved_per_block fp32_lanes').split()
NCU_DEV = {
    'device__attribute_max_registers_per_multiprocessor': 'regs_per_sm',
    'device__attribute_max_threads_per_multiprocessor': 'threads_per_sm',
    'device__attribute_max_warps_per_multiprocessor': 'warps_per_sm',
    'device__attribute_max_blocks_per_multiprocessor': 'blocks_per_sm',
    'device__attribute_max_shared_memory_per_multiprocessor': 'smem_per_sm',
    'device__attribute_max_shared_memory_per_block': 'smem_per_block',
    'device__attribute_max_shared_memory_per_block_optin':
        'smem_per_block_optin',
    'device__attribute_reserved_shared_memory_per_block':
        'smem_reserved_per_block',
    'device__attribute_l2_cache_size': 'l2_bytes',
}


def ceilings(keys, st, t, path):
    for r in t:
        for c in DEV_COLS:
            if t.has(c) and isnum(r[c]):
                st.ceil_dev[c] = r[c]
        if (gt(r['peak_fp32_tflops'], 0) and gt(r['sms'], 0)
                and gt(r['clock_mhz'], 0)):
            st.lanes = (num(r['peak_fp32_tflops']) * 1e6
                        / (2 * num(r['sms']) * num(r['clock_mhz'])))


def dev_keys(keys, st):
    def dev(name):
        return st.ceil_dev.get(name, st.ncu_dev.get(name, ''))
    for c in DEV_COLS:
        v = dev(c)
        # v == "": a number (even 0) is not "" in awk's string comparison
        if c == 'fp32_lanes' and v == '' and st.lanes > 0:
            v = int(st.lanes + 0.5)
        if isinstance(v, str) and v == '':    # absent (a number 0 is not)
            continue
        if re.match(r'^smem_per_(sm|block|block_optin)$', c):
            keys.put(K.family('dev', c + '_kb'), num(v) / 1024, 'int')
        else:
            keys.put(K.family('dev', c), v, 'int')
    if ('warps_per_sm' not in st.ceil_dev and 'warps_per_sm' not in st.ncu_dev
            and gt(dev('threads_per_sm'), 0)):
        keys.put(K.family('dev', 'warps_per_sm'), num(dev('threads_per_sm')) / 32, 'int')
    if 'l2_bytes' in st.ncu_dev:
        keys.put(K.family('dev', 'l2_mb'), st.ncu_dev['l2_bytes'] / 1048576, 'int')


# ------------------------------------------------------------ the measurements

def chapter_runs(keys, st, t, path):
    for r in t:
        ch, kn = r['chapter'], r['kernel']
        size = size_of(r)
        st.main_row.add((ch, kn, size))
        # (the ratio of the times: they have more digits than the rates)
        if gt(r['tflops'], 0) and gt(r['cublas_ms'], 0):
            keys.put(K.chapter(ch, kn, size, 'x_cublas'),
                     num(r['ms']) / num(r['cublas_ms']))
        st.cublas_run(r)
        # a manifest's field is a strnum too (split() made it)
        if eq(kn, st.man.get((ch, 'headline'), '')):
            st.rate[(ch, size)] = r['tflops']
            st.sizes[size] = 1


def micro(keys, st, t, path):
    skip = re.compile(r'^(chapter|name|what|gpu|sms|clock_mhz|driver|cuda|'
                      r'date|commit|code_hash|check|run)$')
    for r in runs.merge_micro(list(t)):
        if r['name'] == '':
            continue
        p = K.chapter(chapter_of(path), 'micro', r['name']) + '.'
        for c in t.columns + (['processes'] if r['processes'] else []):
            if not skip.match(c) and _MEASURE.match(r[c]):
                keys.put(p + c, r[c], 'int' if c in ('runs', 'processes')
                         else 'err' if c == 'error' else '')
        if (isnum(r['ms']) and gt(r['ms'], 0) and isnum(r['ms_q1'])
                and isnum(r['ms_q3'])):
            keys.put(p + 'spread_pct',
                     spread_pct(r['ms'], r['ms_q1'], r['ms_q3']), '%.1f')


def clock(keys, st, t, path):
    # clock-chN.csv (bookdata/clock.py): a row a run of the clock experiment
    for r in t:
        p = K.chapter(chapter_of(path), 'clock', r['name']) + '.'
        for c in ('ms', 'top_mhz', 'clock_min_mhz', 'clock_median_mhz',
                  'below_top_pct', 'power_max_w', 'samples', 'low_ms'):
            if isnum(r[c]):
                keys.put(p + c, r[c], '' if c in ('ms', 'below_top_pct') else 'int')


def sweep(keys, st, t, path):
    n = chapter_of(path)
    for r in runs.merge(list(t)):
        sz = size_of(r)
        st.cublas_run(r)
        # a kernel the chapter's program measured keeps that run's keys
        if (n, r['kernel'], sz) in st.main_row:
            continue
        p = K.chapter(n, r['kernel'], sz) + '.'
        keys.put(p + 'tflops', r['tflops'])
        keys.put(p + 'pct_cublas', r['pct_cublas'], 'pct')
        if r['error'] != '':
            keys.put(p + 'error', r['error'], 'err')
        _put_spread(keys, p, r)


def _awk_words(s):
    """split(s, w, " "): blanks, tabs and newlines separate, none lead."""
    return re.split(r'[ \t\n]+', s.strip(' \t\n')) if s.strip(' \t\n') else []


def emulated(keys, st, t, path):
    for r in runs.merge(list(t)):
        w = _awk_words(r['emulated']) + [''] * 4
        p = K.chapter(chapter_of(path), 'emu',
                      '%s%s_%s%s' % (w[0], w[1], w[2], w[3]), r['kernel'],
                      r['m']) + '.'
        keys.put(p + 'tflops', r['tflops'])
        keys.put(p + 'pct_cublas', r['pct_cublas'], 'pct')
        keys.put(p + 'cublas_tflops', r['cublas_tflops'])
        keys.put(p + 'check', r['check'])
        _put_spread(keys, p, r)


# ------------------------------------------------------------- worked answers

def _answer_check(st, a, r):
    i = K.name(a, r['kernel'])
    if i not in st.a_checks:
        st.a_checks[i], st.a_failed[i], st.a_shapes[i] = 0, 0, ''
    st.a_checks[i] += 1
    if r['check'] != 'ok':
        st.a_failed[i] += 1
        sh = '%sx%sx%s' % (r['m'], r['n'], r['k'])
        s = st.a_shapes[i]
        if (', ' + s + ', ').find(', ' + sh + ', ') < 0:
            st.a_shapes[i] = s + ('' if s == '' else ', ') + sh


_ANSWER = ('answer', 'use', 'options')


def answers(keys, st, t, path):
    # the timed runs (run, before) of several passes as one row each;
    # the checks and repeats as they are, every row counted
    timed = runs.merge([r for r in t if r['use'] in ('run', 'before')],
                       also=_ANSWER)
    for r in [r for r in t if r['use'] not in ('run', 'before')] + timed:
        sz = size_of(r)
        a = K.chapter(chapter_of(path), r['answer'])
        if r['use'] == 'check':
            _answer_check(st, a, r)
            continue
        if r['use'] == 'repeat':
            i = K.name(a, r['kernel'], sz)
            if i not in st.a_runs:
                st.a_runs[i], st.a_runs_failed[i] = 0, 0
            st.a_runs[i] += 1
            if r['check'] != 'ok':
                st.a_runs_failed[i] += 1
            continue
        before = r['use'] == 'before'
        p = K.name(a, *(['before'] if before else []), r['kernel'],
                   sz) + '.'
        keys.put(p + 'tflops', r['tflops'])
        keys.put(p + 'pct_cublas', r['pct_cublas'], 'pct')
        keys.put(p + 'cublas_tflops', r['cublas_tflops'])
        keys.put(p + 'error', r['error'], 'err')
        if r['max_error'] != '':
            keys.put(p + 'max_error', r['max_error'], 'err')
        keys.put(p + 'check', r['check'])
        _put_spread(keys, p, r)
        ak = K.name(a, r['kernel'], sz)
        if before:
            st.b_tf[ak], st.b_err[ak] = r['tflops'], r['error']
        else:
            st.r_tf[ak], st.r_err[ak] = r['tflops'], r['error']


def answers_micro(keys, st, t, path):
    skip = re.compile(r'^(answer|use|options|chapter|name|what|gpu|sms|'
                      r'clock_mhz|driver|date|commit|code_hash)$')
    for r in runs.merge_micro(list(t), also=_ANSWER):
        p = K.chapter(chapter_of(path), r['answer'],
                      *(['before'] if r['use'] == 'before' else []),
                      'micro', r['name']) + '.'
        for c in t.columns:
            if not skip.match(c) and _MEASURE.match(r[c]):
                keys.put(p + c, r[c])


def answers_san(keys, st, t, path):
    for r in t:
        p = K.chapter(chapter_of(path), r['answer'],
                      *(['before'] if r['use'] == 'before' else []),
                      r['tool']) + '.'
        if r['hazards'] != '':
            keys.put(p + 'hazards', r['hazards'], 'int')
        for c in ('errors', 'warnings', 'pairs', 'occurrences'):
            keys.put(p + c, r[c], 'int')
        keys.put(p + 'check', r['check'])


def answer_keys(keys, st):
    for i in st.a_checks:
        keys.put(K.name(i, 'checks'), st.a_checks[i], 'int')
        keys.put(K.name(i, 'failed'), st.a_failed[i], 'int')
        keys.put(K.name(i, 'failed_shapes'), st.a_shapes[i] or 'none')
    for i in st.a_runs:
        keys.put(K.name(i, 'runs'), st.a_runs[i], 'int')
        keys.put(K.name(i, 'runs_failed'), st.a_runs_failed[i], 'int')
    for ak in st.r_tf:
        if ak not in st.b_tf:
            continue
        if num(st.b_tf[ak]) > 0:
            keys.put(K.name(ak, 'change_pct'),
                     100 * (num(st.r_tf[ak]) / num(st.b_tf[ak]) - 1), '%+.1f')
        if num(st.b_err[ak]) > 0:
            keys.put(K.name(ak, 'error_ratio'),
                     num(st.r_err[ak]) / num(st.b_err[ak]))


# ------------------------------------------------------------ the machine code

def sass(keys, st, t, path):
    n = chapter_of(path)
    for r in t:
        if r['kernel'] == '':
            continue
        # twice: a piece's match takes the dot the next one starts with
        op = '.' + r['opcode'] + '.'
        op = re.sub(r'\.(U|SYS)\.', '.', re.sub(r'\.(U|SYS)\.', '.', op))
        op = op.lower().replace('.', '')
        k = K.chapter(n, r['kernel'], 'sass', op)
        st.sass_n[k] = st.sass_n.get(k, 0) + num(r['count'])


# ---------------------------------------------------- Nsight Compute's pages

# ncu-chN.csv keys: (key, counter, how), the counter as it is; awk's
# m_[counter] of a counter the page lacks is "" in both files
_NCU_BARE = [
    ('l1_hit_pct', 'l1tex__t_sector_hit_rate.pct', '%.0f'),
    ('issue_pct', 'smsp__issue_active.avg.pct_of_peak_sustained_active', ''),
    ('warps_pct', 'sm__warps_active.avg.pct_of_peak_sustained_active',
     '%.0f'),
]
# the same where the page has the column
_NCU_HAS = [
    ('sm_active_pct', 'sm__cycles_active.avg.pct_of_peak_sustained_elapsed',
     '%.0f'),
    ('tensor_elapsed_pct',
     'sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_elapsed',
     '%.0f'),
]
_NCU_LAUNCH = [
    ('regs_alloc', 'launch__registers_per_thread_allocated'),
    ('smem_config_kb', 'launch__shared_mem_config_size'),
    ('smem_block_bytes', 'launch__shared_mem_per_block'),
    ('smem_driver_bytes', 'launch__shared_mem_per_block_driver'),
    ('block_size', 'launch__block_size'),
    ('grid_size', 'launch__grid_size'),
]
_OCC = [('occ_limit_regs', 'launch__occupancy_limit_registers'),
        ('occ_limit_smem', 'launch__occupancy_limit_shared_mem'),
        ('occ_limit_warps', 'launch__occupancy_limit_warps')]
_STALL = re.compile(
    r'^smsp__average_warps_issue_stalled_(.*)_per_issue_active\.ratio$')


def ncu_num(s):
    """more-keys' num(): thousands' commas dropped, then s + 0."""
    return num(s.replace(',', ''))


def ncu(keys, st, t, path):
    n = chapter_of(path)
    for i, r in enumerate(t.rows):
        if i == 0 or r['kernel'] == '':    # the units row
            continue
        m = {c: ncu_num(r[c]) for c in t.columns}
        _ncu_row(keys, st, t, K.chapter(n, r['kernel'], 'ncu') + '.', r, m)


def _ncu_row(keys, st, t, p, r, m):
    def v(c):
        return m.get(c, 0.0)

    def bare(c):    # an uninitialized m_[c]: "" printed, "" formatted
        return m.get(c, '')
    put, has = keys.put, t.has
    ffma = v('smsp__sass_thread_inst_executed_op_ffma_pred_on.sum') / 32
    req = v('l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum')
    inst = v('smsp__inst_executed.sum')
    lds = v('smsp__inst_executed_op_shared_ld.sum')
    sts = v('smsp__inst_executed_op_shared_st.sum')
    put(p + 'time_ms', v('gpu__time_duration.sum') / 1e6)
    if req > 0:
        put(p + 'sectors_per_req',
            v('l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum') / req, '%.1f')
    for k, c, how in _NCU_BARE:
        put(p + k, bare(c), how)
    put(p + 'dram_gb', v('dram__bytes_read.sum') / 1e9)
    put(p + 'l2_gb', v('lts__t_bytes.sum') / 1e9)
    for k, c, how in _NCU_HAS:
        if has(c):
            put(p + k, m[c], how)
    if has('lts__t_sectors_srcunit_tex_op_read.sum'):
        put(p + 'l2_read_gb',
            32 * m['lts__t_sectors_srcunit_tex_op_read.sum'] / 1e9)
    if has('smsp__inst_executed_op_local_ld.sum'):
        put(p + 'local_ld', m['smsp__inst_executed_op_local_ld.sum'], 'int')
        put(p + 'local_st', bare('smsp__inst_executed_op_local_st.sum'), 'int')
    if has('lts__t_sectors_op_red.sum'):
        put(p + 'red_sectors', m['lts__t_sectors_op_red.sum'], 'int')
    if has('smsp__inst_executed_op_global_red.sum'):
        put(p + 'red_inst', m['smsp__inst_executed_op_global_red.sum'], 'int')
    gld = v('smsp__inst_executed_op_global_ld.sum')
    put(p + 'gld_ginst', gld / 1e9)
    put(p + 'lds_ginst', lds / 1e9)
    put(p + 'ffma_ginst', ffma / 1e9)
    put(p + 'inst_ginst', inst / 1e9)
    if ffma > 0:
        put(p + 'inst_per_ffma', inst / ffma, '%.2f')
        put(p + 'lds_per_ffma', lds / ffma, '%.2f')
        put(p + 'gld_per_ffma', gld / ffma, '%.3f')
        if has('smsp__inst_executed_op_shared_st.sum'):
            put(p + 'sts_per_ffma', sts / ffma, '%.3f')
    bank = 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_'
    put(p + 'bank_conflicts', bare(bank + 'ld.sum'), 'int')
    put(p + 'st_conflicts', bare(bank + 'st.sum'), 'int')
    put(p + 'regs', bare('launch__registers_per_thread'), 'int')
    _ncu_tensor_launch(keys, st, t, p, r, m)
    if lds > 0:
        put(p + 'lds_wavefronts',
            v('l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum') / lds,
            '%.2f')
    if sts > 0 and has('l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum'):
        put(p + 'sts_wavefronts',
            m['l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum'] / sts,
            '%.2f')
    put(p + 'occ_theory_pct', bare('sm__maximum_warps_per_active_cycle_pct'),
        '%.0f')
    for k, c in _OCC:
        if has(c):
            put(p + k, m[c], 'int')
    for c in t.columns:
        s = _STALL.match(c)
        if s:
            put(p + 'stall_' + s.group(1), m[c], '%.2f')


def _ncu_tensor_launch(keys, st, t, p, r, m):
    """The tensor cores, the launch's configuration, cuBLAS's tile, the
    waves, the device's attributes."""
    put, has = keys.put, t.has
    hmma = ('sm__pipe_tensor_op_hmma_cycles_active.avg.'
            'pct_of_peak_sustained_active')
    if has(hmma):
        put(p + 'tensor_pct', m[hmma], '%.0f')
    if has('smsp__inst_executed_pipe_tensor_op_hmma.sum'):
        put(p + 'hmma_ginst',
            m['smsp__inst_executed_pipe_tensor_op_hmma.sum'] / 1e9, '%.3f')
    if has('smsp__inst_executed_op_ldsm.sum'):
        put(p + 'ldsm_ginst', m['smsp__inst_executed_op_ldsm.sum'] / 1e9,
            '%.3f')
    for k, c in _NCU_LAUNCH:
        if has(c):
            put(p + k, m[c] / 1024 if k == 'smem_config_kb' else m[c], 'int')
    # cuBLAS's Hopper kernels (nvjet_...): the first AxB of the name, the
    # tile in cuBLAS's column-major terms (A columns of the book's C by B
    # rows); the pieces are the name's text, as awk's split() left them
    name = r['Kernel Name']
    tile = re.search(r'[0-9]+x[0-9]+', name)
    if r['kernel'].startswith('cublas-') and name.startswith('nvjet') and tile:
        cols, rows = tile.group(0).split('x')
        put(p + 'tile_cols', cols, 'int')
        put(p + 'tile_rows', rows, 'int')
    if has('launch__waves_per_multiprocessor'):
        put(p + 'waves', m['launch__waves_per_multiprocessor'], '%.2f')
    for c, name in NCU_DEV.items():
        if has(c) and name not in st.ncu_dev:
            st.ncu_dev[name] = m[c]


# ------------------------------------------------------------------ the END

def cublas_keys(keys, st):
    # SIZE is the text of the rows' m (runs_rows looks up "1024")
    for (b, s), runs in st.cub_runs.items():
        lo, hi, n = st.cub_min[(b, s)], st.cub_max[(b, s)], num(s)
        p = K.family(b, s) + '.'
        keys.put(p + 'runs', runs, 'int')
        keys.put(p + 'ms_min', lo)
        keys.put(p + 'ms_max', hi)
        keys.put(p + 'tflops_min', 2 * n * n * n / (hi * 1e9))
        keys.put(p + 'tflops_max', 2 * n * n * n / (lo * 1e9))
        keys.put(p + 'range_pct', 100 * (hi - lo) / lo, 'pct')
    # the rows of chapter 0's table of cuBLAS between runs
    rows = ''
    for b, prec in (('cublas', 'FP32'), ('cublas_tf32', 'TF32'),
                    ('cublas_bf16', 'BF16')):
        first = True
        for s in (1024, 4096, 8192):
            bs = (b, str(s))
            if bs not in st.cub_runs:
                continue
            lo, hi = st.cub_min[bs], st.cub_max[bs]
            rows += '%s & $%d^3$ & %d & %s--%s & %s\\,\\%% \\\\ ' % (
                prec if first else '', s, st.cub_runs[bs],
                fmt(2 * s * s * s / (hi * 1e9)),
                fmt(2 * s * s * s / (lo * 1e9)),
                fmt(100 * (hi - lo) / lo, 'pct'))
            first = False
    if rows != '':
        keys.put(K.family('cublas', 'runs_rows'), rows)


def latex(t):
    """A manifest's text as LaTeX: [[code]] in typewriter, _ and &
    escaped, backslashes dropped."""
    t = t.replace('\\', '').replace('_', '\\_').replace('&', '\\&')
    o = ''
    m = re.search(r'\[\[[^]]*\]\]', t)
    while m:
        o += t[:m.start()] + '\\texttt{' + t[m.start() + 2:m.end() - 2] + '}'
        t = t[m.end():]
        m = re.search(r'\[\[[^]]*\]\]', t)
    return o + t


def needs(v):
    """sm_80 -> "8.0 or newer", sm_90a -> "9.0 only"; None if not sm_."""
    if not re.fullmatch(r'sm_[0-9]+a?', v):
        return None
    cc = v[3:]
    exact = cc.endswith('a')
    cc = cc.rstrip('a')
    return cc[:-1] + '.' + cc[-1:] + (' only' if exact else ' or newer')


# The GPUs a course may have, by the compute capability they run: the
# syllabus's tracks (Hopper sm_90a, Ampere and Ada up to sm_89, Turing
# sm_75).
TRACKS = (('hopper', 90, True), ('ampere', 89, False), ('turing', 75, False))


def lab_sm(c, man):
    """(capability as 10 * major + minor, exact) a lab needs: the sm_XY
    its lab_needs names, else its chapter's needs."""
    m = re.search(r'sm_(\d)(\d)(a?)', man.get((c, 'lab_needs'), '')) \
        or re.search(r'sm_(\d)(\d)(a?)', man.get((c, 'needs'), ''))
    if not m:
        return 0, False
    return int(m.group(1)) * 10 + int(m.group(2)), m.group(3) == 'a'


def track_keys(keys, chapters, man):
    """labs.TRACK.list, .hours, .replaced, .replaced_list: the labs a
    class on that GPU runs, their hours, and those it cannot run."""
    labs = [c for c in chapters if man.get((c, 'lab'), '') != '']
    for track, cap, hopper in TRACKS:
        run, out, hours = [], [], 0
        for c in labs:
            need, exact = lab_sm(c, man)
            if need <= cap and (hopper or not exact):
                run.append(c)
                hours += num(man.get((c, 'lab_hours'), '0'))
            else:
                out.append(c)
        keys.plain(K.family('labs', track, 'list'), _series(run), raw=False)
        keys.plain(K.family('labs', track, 'count'), str(len(run)))
        keys.plain(K.family('labs', track, 'hours'), numstr(hours))
        keys.plain(K.family('labs', track, 'replaced'), str(len(out)))
        keys.plain(K.family('labs', track, 'replaced_list'),
                   _series(out) if out else 'none', raw=False)


def _series(items):
    """1, 2 and 3."""
    items = [str(i) for i in items]
    if len(items) <= 1:
        return ''.join(items)
    return ', '.join(items[:-1]) + ' and ' + items[-1]


def chapter_keys(keys, st, chapters, man):
    labrows, labhours = '', 0
    for i, c in enumerate(chapters):
        head = man.get((c, 'headline'), '')
        if head != '':
            keys.plain(K.chapter(c, 'main'), head)
        cc = needs(man.get((c, 'needs'), ''))
        if cc is not None:
            keys.plain(K.chapter(c, 'needs'), cc)
        # the lab: its hours, and a row of the table of labs (LaTeX)
        if man.get((c, 'lab'), '') != '':
            hours = man.get((c, 'lab_hours'), '')
            keys.plain(K.chapter(c, 'lab_hours'), hours)
            speed = man.get((c, 'lab_speed'), '')
            if speed != '':
                keys.plain(K.chapter(c, 'lab_speed_pct'),
                           numstr(round(100 * num(speed))))
            # (the text cells ragged right: the row ends in
            # \tabularnewline, which \raggedright leaves alone)
            labrows += ('\\ref{ch:%s} & \\raggedright %s & \\texttt{%s} '
                        '& %s & %s & \\raggedright %s \\tabularnewline ') % (
                c, latex(man[(c, 'lab')]),
                latex(man.get((c, 'lab_kernel'), '')), hours,
                '%d\\,\\%%' % round(100 * num(speed)) if speed != '' else '--',
                latex(man.get((c, 'lab_needs'), '')))
            labhours += num(hours)
        if i == 0:
            continue
        prev = chapters[i - 1]
        for s in st.sizes:
            if ((c, s) in st.rate and (prev, s) in st.rate
                    and gt(st.rate[(prev, s)], 0)):
                keys.put(K.chapter(c, s, 'speedup'),
                         num(st.rate[(c, s)]) / num(st.rate[(prev, s)]))
    track_keys(keys, chapters, man)
    if labrows != '':
        keys.plain(K.family('labs', 'rows'), labrows, raw=False)
        # a sum: awk's %s of a number (CONVFMT), in both files
        keys.plain(K.family('labs', 'hours'), numstr(labhours))


# ------------------------------------------------------------------ the files

def files(res, out, chapters, man):
    """The files more-keys read, in its order."""
    fs = []

    def add(path):
        if res and os.path.isfile(path):
            fs.append(path)
    add(res + '/ceilings.csv')
    for n in chapters:
        for f in ('ch', 'ncu-ch', 'micro-ch', 'sweep-ch', 'emulated-ch',
                  'answers-ch', 'answers-micro-ch', 'answers-ncu-ch',
                  'answers-san-ch', 'clock-ch'):
            add('%s/%s%s.csv' % (res, f, n))
        for p in man.get((n, 'programs'), '').split():
            if os.path.isfile('%s/sass-%s.csv' % (out, p)):
                fs.append('%s/sass-%s.csv' % (out, p))
            else:
                add('%s/sass-%s.csv' % (res, p))
    return fs


# the first rule whose pattern the file's name matches reads it (awk's order)
RULES = [
    (r'ceilings\.csv$', ceilings),
    (r'/ch[0-9]+\.csv$', chapter_runs),
    (r'/micro-ch[0-9]+\.csv$', micro),
    (r'/sweep-ch[0-9]+\.csv$', sweep),
    (r'/clock-ch[0-9]+\.csv$', clock),
    (r'/emulated-ch[0-9]+\.csv$', emulated),
    (r'/answers-ch[0-9]+\.csv$', answers),
    (r'/answers-micro-ch[0-9]+\.csv$', answers_micro),
    (r'/answers-san-ch[0-9]+\.csv$', answers_san),
    (r'sass-[^/]*\.csv$', sass),
    (r'ncu-ch[0-9]+\.csv$', ncu),    # answers-ncu-chN.csv too
]


def derived(keys, res, out, chapters, man):
    """Add the derived keys to keys (bookdata.keys.Keys)."""
    st = State(man)
    for path in files(res, out, chapters, man):
        for pat, read in RULES:
            if re.search(pat, path):
                read(keys, st, table(path), path)
                break
    dev_keys(keys, st)
    cublas_keys(keys, st)
    answer_keys(keys, st)
    for k, n in st.sass_n.items():
        keys.put(k, n, 'int')
    chapter_keys(keys, st, chapters, man)
