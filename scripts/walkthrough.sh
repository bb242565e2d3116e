#!/usr/bin/env bash
# The README's walk-through as a script: run it with `npm run dev` serving (PORT as dev's, default
# 8787). Every id is captured from the answer that made it; each step checks what it answered.
# Needs curl and jq.
set -euo pipefail
cd "$(dirname "$0")/.."

API=${API:-$(jq -r .url .wrangler/dev.lock 2>/dev/null || echo "http://127.0.0.1:${PORT:-8787}")}
QUIZ_KEY=${QUIZ_KEY:-$(jq -r .key .wrangler/dev-credentials.json)}   # the key npm run dev printed
auth=(-H "X-API-Key: $QUIZ_KEY")
json=(-H 'Content-Type: application/json')
check() { if ! jq -e "$2" >/dev/null <<<"$3"; then echo "FAIL: $1: $3" >&2; exit 1; fi; echo "ok  $1"; }

check "the service is up" '.status == "ok"' "$(curl -s "$API/health")"
check "the key authenticates" '.status == "success"' "$(curl -s "$API/v1/auth/verify" "${auth[@]}")"

# A quiz with two questions in one atomic write; the answer names the questions it created.
CREATED=$(curl -s "$API/v1/quizzes" "${auth[@]}" "${json[@]}" -d '{
  "title": "Capitals",
  "settings": { "max_attempts": 3, "feedback_bands": [ { "min_score": 0, "message": "Keep practising" },
                                                       { "min_score": 80, "message": "Well done" } ] },
  "questions": [
    { "type": "single_choice", "prompt": "Capital of France?",
      "options": [ { "text": "Paris" }, { "text": "Lyon" } ], "correct_option_id": "a" },
    { "type": "numeric", "prompt": "How many arrondissements does Paris have?", "correct_value": 20 }
  ] }')
check "quiz created with 2 questions" '.questions == 2 and (.question_ids | length) == 2' "$CREATED"
QUIZ=$(jq -r .id <<<"$CREATED")
Q1=$(jq -r '.question_ids[0]' <<<"$CREATED")
Q2=$(jq -r '.question_ids[1]' <<<"$CREATED")

check "quizzes listed" '.quizzes | length >= 1' "$(curl -s "$API/v1/quizzes?limit=10" "${auth[@]}")"

# A user (a fresh e-mail each run: e-mails are unique).
LEARNER=$(curl -s "$API/v1/users" "${auth[@]}" "${json[@]}" \
  -d '{"name":"Ada Lovelace","email":"ada+'"$(date +%s%N)"'@example.com"}' | jq -r .id)
check "user registered" 'startswith("user_")' "\"$LEARNER\""

SUB=$(curl -s "$API/v1/quizzes/$QUIZ/submissions" "${auth[@]}" "${json[@]}" \
  -d '{"user_id":"'"$LEARNER"'","answers":[{"question_id":"'"$Q1"'","response":"a"},{"question_id":"'"$Q2"'","response":20}]}' \
  | jq -r .id)
check "submission open" 'startswith("sub_")' "\"$SUB\""

check "graded" '.score == 100 and .feedback == "Well done"' "$(curl -s -X POST "$API/v1/submissions/$SUB/grade" "${auth[@]}")"
check "results" '(.answers | length) == 2 and all(.answers[]; .correct)' "$(curl -s "$API/v1/submissions/$SUB/results" "${auth[@]}")"
check "quiz analytics" '.total_attempts == 1 and .avg_score == 100' "$(curl -s "$API/v1/analytics/quiz/$QUIZ" "${auth[@]}")"
check "user analytics" '.quizzes_taken == 1' "$(curl -s "$API/v1/analytics/user/$LEARNER" "${auth[@]}")"
echo "walk-through: every step answered as documented"
