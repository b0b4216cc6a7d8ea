// A QEMU TCG plugin that counts the guest instructions a program executes, for instruction counts
// per frame of the arm64 swell (scripts/arm64/count-instructions). Emulated time says nothing of a
// Raspberry Pi's speed; the number of aarch64 instructions a frame takes does, and it is the same
// on every run of the same binary and input.
//
// Debian 12 ships QEMU 7.2 with plugin support (the dynamic qemu-aarch64 of package qemu-user)
// but neither its plugin header nor its example plugins (contrib/plugins/libinsn is the model), so
// the few declarations of the version-1 plugin API this needs are written out here, exactly as
// QEMU 7.2's include/qemu/qemu-plugin.h declares them.
//
// Build: gcc -shared -fPIC -O2 -o insn-count.so insn-count.c
// Use:   qemu-aarch64 -plugin ./insn-count.so,outfile=FILE -L ROOT PROGRAM ARGS...
//        (writes "instructions N" to FILE when the program exits)
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
typedef struct qemu_info_t qemu_info_t;  // only passed through
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, enum qemu_plugin_op op, void *ptr,
                                              uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

// One counter for all threads: inline adds are not atomic across vCPUs, so counts are exact for
// the single-threaded runs this is for (swell bench --threads 1).
static uint64_t executed;
static char outfile[4096];

// Each translated block adds its instruction count every time it runs (inline, no callback).
static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
    (void)id;
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &executed, qemu_plugin_tb_n_insns(tb));
}

static void finished(qemu_plugin_id_t id, void *userdata) {
    (void)id;
    (void)userdata;
    FILE *out = outfile[0] ? fopen(outfile, "w") : stderr;
    if (!out) return;
    fprintf(out, "instructions %llu\n", (unsigned long long)executed);
    if (out != stderr) fclose(out);
}

__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
                                                               char **argv) {
    (void)info;
    for (int i = 0; i < argc; i++) {
        if (strncmp(argv[i], "outfile=", 8) == 0) snprintf(outfile, sizeof outfile, "%s", argv[i] + 8);
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
    qemu_plugin_register_atexit_cb(id, finished, NULL);
    return 0;
}
