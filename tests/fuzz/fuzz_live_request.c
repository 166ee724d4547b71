/* fuzz_live_request.c: libFuzzer harness for the live daemon's request
 * parser (live_parse_request: every op, the progress reports included).
 * Properties: every error reply is valid UTF-8 and parses back as one JSON
 * object with "ok": false; a submission that parses is stored
 * (live_submit_to_json) as text that parses back to the same job, with
 * valid UTF-8 argv, user and workload. */
#include "live/proto.h"
#include "model/json_util.h"
#include "tests/fuzz/fuzz_util.h"

#include <string.h>

static void check_reply(const char *msg)
{
    char *reply = live_reply_error(msg);
    size_t n = strlen(reply);
    if (!mls_utf8_valid(reply, n))
        fuzz_fail("an error reply is not valid UTF-8", reply);
    mls_err_t err;
    cJSON *o = mls_json_parse(reply, n, "reply", 1, &err);
    if (!o || !cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(o, "ok")))
        fuzz_fail("an error reply is not a JSON object with ok false", reply);
    cJSON_Delete(o);
    free(reply);
}

static void check_submit(const live_submit_t *s)
{
    char *json = live_submit_to_json(s);
    live_submit_t back;
    mls_err_t err;
    if (live_submit_from_json(json, &back, &err) < 0)
        fuzz_fail("a stored submission does not parse back", err.msg);
    if (back.argc != s->argc || strcmp(back.workload, s->workload) || back.gpus != s->gpus ||
        back.work != s->work || (s->user && strcmp(back.user, s->user)))
        fuzz_fail("a stored submission parses back as another job", json);
    for (int i = 0; i < s->argc; i++)
        if (strcmp(back.argv[i], s->argv[i]) ||
            !mls_utf8_valid(s->argv[i], strlen(s->argv[i])))
            fuzz_fail("argv changed through the store, or is not UTF-8", json);
    live_submit_free(&back);
    free(json);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    live_request_t r;
    mls_err_t err;
    if (live_parse_request((const char *)data, size, &r, &err) < 0) {
        check_reply(err.msg);
        return 0;
    }
    if (r.op == LIVE_OP_SUBMIT)
        check_submit(&r.sub);
    live_request_free(&r);
    return 0;
}
