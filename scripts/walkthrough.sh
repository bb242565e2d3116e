#!/usr/bin/env bash
# The README's walk-through as a script: run it with `npm run dev` serving. Every id is captured
# from the answer that made it; each step checks the status and the body it answered, and a step
# that gets no answer, another status or another body prints "FAIL: <step>: …" and exits 1.
#
# Which server: API and QUIZ_KEY when set (CI sets both); otherwise the npm run dev of the state
# directory DEV_STATE_DIR (default .wrangler): the URL in its dev.lock and the key in its
# dev-credentials.json. Needs curl and jq.
set -euo pipefail
cd "$(dirname "$0")/.."

STATE_DIR=${DEV_STATE_DIR:-.wrangler}
fail() { echo "FAIL: $1" >&2; exit 1; }

if [ -z "${API:-}" ]; then
  [ -f "$STATE_DIR/dev.lock" ] || fail "find the server: no $STATE_DIR/dev.lock (start npm run dev, or set API)"
  API=$(jq -er .url "$STATE_DIR/dev.lock" 2>/dev/null) || fail "find the server: $STATE_DIR/dev.lock holds no url"
fi
if [ -z "${QUIZ_KEY:-}" ]; then
  QUIZ_KEY=$(jq -er .key "$STATE_DIR/dev-credentials.json" 2>/dev/null) ||
    fail "find the key: no key in $STATE_DIR/dev-credentials.json (start npm run dev, or set QUIZ_KEY)"
fi
auth=(-H "X-API-Key: $QUIZ_KEY")
json=(-H 'Content-Type: application/json')

# request STEP STATUS CURL-ARGS…: one call; its body in BODY. No answer, or another status → FAIL.
BODY=
request() {
  local step=$1 want=$2 out
  shift 2
  if ! out=$(curl -sS --max-time 30 -w '\n%{http_code}' "$@" 2>&1); then
    out=${out%$'\n'*}
    fail "$step: no answer from $API (${out//$'\n'/ })"
  fi
  local status=${out##*$'\n'}
  BODY=${out%$'\n'*}
  [ "$status" = "$want" ] || fail "$step: answered HTTP $status, expected $want: $BODY"
}
# check STEP FILTER: BODY must be one JSON value for which the jq FILTER is true. (jq -e alone
# exits 0 on empty input, so the count of values is checked first.)
check() {
  local step=$1 filter=$2
  [ "$(jq -s length <<<"$BODY" 2>/dev/null)" = 1 ] || fail "$step: the answer is not one JSON value: $BODY"
  jq -e "$filter" >/dev/null 2>&1 <<<"$BODY" || fail "$step: the answer is not what the README says ($filter): $BODY"
  echo "ok  $step"
}
# field NAME JQ: one string from BODY (an id), never empty or null.
field() { jq -er "$2 | strings | select(length > 0)" <<<"$BODY" 2>/dev/null || fail "$1: no $2 in $BODY"; }

request "the service is up" 200 "$API/health"
check "the service is up" '.status == "ok"'
request "the key authenticates" 200 "$API/v1/auth/verify" "${auth[@]}"
check "the key authenticates" '.status == "success"'

# A quiz with two questions in one atomic write; the answer names the questions it created.
request "quiz created with 2 questions" 201 "$API/v1/quizzes" "${auth[@]}" "${json[@]}" -d '{
  "title": "Capitals",
  "settings": { "max_attempts": 3, "feedback_bands": [ { "min_score": 0, "message": "Keep practising" },
                                                       { "min_score": 80, "message": "Well done" } ] },
  "questions": [
    { "type": "single_choice", "prompt": "Capital of France?",
      "options": [ { "text": "Paris" }, { "text": "Lyon" } ], "correct_option_id": "a" },
    { "type": "numeric", "prompt": "How many arrondissements does Paris have?", "correct_value": 20 }
  ] }'
check "quiz created with 2 questions" '.questions == 2 and (.question_ids | length) == 2'
QUIZ=$(field "quiz created" .id)
Q1=$(field "quiz created" '.question_ids[0]')
Q2=$(field "quiz created" '.question_ids[1]')

request "quizzes listed" 200 "$API/v1/quizzes?limit=10" "${auth[@]}"
check "quizzes listed" '.quizzes | length >= 1'

# A user (a fresh e-mail each run: e-mails are unique).
request "user registered" 201 "$API/v1/users" "${auth[@]}" "${json[@]}" \
  -d '{"name":"Ada Lovelace","email":"ada+'"$(date +%s%N)"'@example.com"}'
check "user registered" '.id | startswith("user_")'
LEARNER=$(field "user registered" .id)

request "submission open" 201 "$API/v1/quizzes/$QUIZ/submissions" "${auth[@]}" "${json[@]}" \
  -d '{"user_id":"'"$LEARNER"'","answers":[{"question_id":"'"$Q1"'","response":"a"},{"question_id":"'"$Q2"'","response":20}]}'
check "submission open" '(.id | startswith("sub_")) and .status == "open"'
SUB=$(field "submission open" .id)

request "graded" 200 -X POST "$API/v1/submissions/$SUB/grade" "${auth[@]}"
check "graded" '.score == 100 and .feedback == "Well done"'
request "results" 200 "$API/v1/submissions/$SUB/results" "${auth[@]}"
check "results" '(.answers | length) == 2 and all(.answers[]; .correct)'
request "quiz analytics" 200 "$API/v1/analytics/quiz/$QUIZ" "${auth[@]}"
check "quiz analytics" '.total_attempts == 1 and .avg_score == 100'
request "user analytics" 200 "$API/v1/analytics/user/$LEARNER" "${auth[@]}"
check "user analytics" '.quizzes_taken == 1'
echo "walk-through: every step answered as documented"
