// UI strings of the progress, review and quiz-set islands, in every site language. Placeholders
// are {name}. Components render the static text from here at build time; islands fill the rest.

import type { ProgressWarning } from '../../quiz/progress.ts';

import { fill as fillUi, langOf, type Lang } from '../../i18n/ui.ts';

/** ProgressLang is the site language (src/i18n/ui.ts is the one list of languages). */
export type ProgressLang = Lang;

const en = {
  // QuizProgress
  lessonProgress: 'Your progress on this page',
  solvedOf: '{solved} of {total} questions solved',
  solvedNone: 'No questions on this page yet.',
  keptHere: 'Progress is kept in this browser only.',
  damaged: 'Some stored progress is damaged: see the progress page.',
  // CourseProgress
  courseTitle: 'Course progress',
  total: 'Whole course',
  lesson: 'Lesson',
  solved: 'Solved',
  noQuestions: 'The course has no questions yet.',
  loadingProgress: 'Reading your progress…',
  noScript: 'Progress needs JavaScript and is kept in this browser’s local storage.',
  // Export, import, reset
  manage: 'Keep or move your progress',
  manageHelp:
    'Your progress is kept in this browser’s local storage and nowhere else. Export it to a file to keep a copy or to move it to another browser.',
  export: 'Export progress',
  exported: 'Saved {file}.',
  importLabel: 'Import a progress file',
  importMode: 'When importing',
  modeMerge: 'Merge with the progress in this browser (keeps the best result of each question)',
  modeReplace: 'Replace the progress in this browser with the file',
  importButton: 'Import',
  importChoose: 'Choose a file first.',
  imported: 'Imported {questions} questions and {concepts} concepts ({mode}).',
  importedMerge: 'merged',
  importedReplace: 'replaced',
  importNotJson: 'That file is not JSON, so nothing was imported.',
  importNotProgress: 'That file is not a progress export, so nothing was imported.',
  importUnreadable: 'The file could not be read.',
  reset: 'Reset progress',
  resetConfirm:
    'Forget all your answers and review schedules in this browser? This cannot be undone (export first to keep a copy).',
  resetDone: 'Progress reset. Nothing is stored for this course in this browser now.',
  resetCancelled: 'Nothing was reset.',
  // Warnings
  warningsTitle: 'Some stored progress could not be read',
  warningsHelp: 'Everything that was intact has been kept; only the entries below were dropped.',
  warn: {
    unreadable: 'The stored progress was not readable at all, so it starts afresh.',
    truncated:
      'The stored progress was cut short or damaged part-way; what came before the damage was kept.',
    'not-object': 'The stored progress was not in the expected shape, so it starts afresh.',
    'dropped-question': 'The record of question {id} was broken and was dropped ({detail}).',
    'dropped-concept': 'The review schedule of concept {id} was broken and was dropped ({detail}).',
    migrated: 'Progress saved by an older version of the site was upgraded.',
    'newer-version':
      'Progress was saved by a newer version of the site (format {detail}); what could be read was kept.',
    'unknown-version':
      'Progress had an unknown format version ({detail}); what could be read was kept.',
    'not-saved': 'This browser refused to store progress (storage full or disabled).',
  } satisfies Record<ProgressWarning['code'], string>,
  // Review
  reviewDue: 'Due for review',
  reviewDueCount: '{n} concepts are due for review.',
  reviewDueOne: '1 concept is due for review.',
  reviewNothing: 'Nothing is due for review now.',
  reviewNext: 'The next review is {concept}, {when}.',
  reviewEmpty:
    'Nothing to review yet: answer some questions in the lessons first, and their concepts will come back here.',
  reviewUpcoming: 'Coming up',
  reviewConcept: 'Concept',
  reviewWhen: 'Due',
  reviewOverdue: 'due since {when}',
  reviewQuestionFor: 'A question on {concept}',
  reviewNoQuestion: 'No question on {concept} is available on this page.',
  reviewFresh: 'Each visit deals you a fresh variant of the question.',
  // QuizSet
  interview: 'Interview round',
  practice: 'Practice set',
  interviewIntro:
    'You have {minutes} minutes for {n} questions. Feedback is held back until you finish or the time runs out.',
  start: 'Start the round',
  finish: 'Finish and see results',
  timeLeft: 'Time left',
  minutesLeft: '{n} minutes left.',
  oneMinuteLeft: '1 minute left.',
  started: 'The round has started: {minutes} minutes.',
  timeUp: 'Time is up. Here are your results.',
  finished: 'Round finished. Here are your results.',
  restored: 'Your last round, as you finished it. The questions below can be answered again.',
  newRound: 'Start a new round',
  debrief: 'Results',
  totalScore: 'Score: {score} of {total}',
  questionN: 'Question {n}',
  notAnswered: 'not answered',
  resultScore: '{score} of 1',
  resultCorrect: 'right',
  resultWrong: 'not right',
  resultPartly: 'partly right',
  selfAssessed: 'self-assessed',
  goTo: 'Go to the feedback of question {n}',
  again: 'Start again',
  practiceTotal: 'Answered {answered} of {n} · score {score} of {n}',
};

export type ProgressStrings = typeof en;

const ja: ProgressStrings = {
  lessonProgress: 'このページの進み具合',
  solvedOf: '{total} 問中 {solved} 問正解',
  solvedNone: 'このページにはまだ問題がありません。',
  keptHere: '進み具合はこのブラウザーにだけ保存されます。',
  damaged: '保存された進み具合の一部が壊れています。進み具合のページを確認してください。',
  courseTitle: 'コース全体の進み具合',
  total: 'コース全体',
  lesson: 'レッスン',
  solved: '正解',
  noQuestions: 'コースにはまだ問題がありません。',
  loadingProgress: '進み具合を読み込んでいます…',
  noScript:
    '進み具合の表示には JavaScript が必要です。データはこのブラウザーのローカルストレージに保存されます。',
  manage: '進み具合の保存と移行',
  manageHelp:
    '進み具合はこのブラウザーのローカルストレージにだけ保存されています。控えを残したり別のブラウザーへ移したりするには、ファイルに書き出してください。',
  export: '進み具合を書き出す',
  exported: '{file} を保存しました。',
  importLabel: '進み具合のファイルを読み込む',
  importMode: '読み込み方法',
  modeMerge: 'このブラウザーの進み具合と統合する(各問題のいちばん良い結果を残します)',
  modeReplace: 'このブラウザーの進み具合をファイルの内容で置き換える',
  importButton: '読み込む',
  importChoose: '先にファイルを選んでください。',
  imported: '{questions} 問と {concepts} 個の概念を読み込みました({mode})。',
  importedMerge: '統合',
  importedReplace: '置き換え',
  importNotJson: 'このファイルは JSON ではないため、何も読み込みませんでした。',
  importNotProgress:
    'このファイルは進み具合の書き出しファイルではないため、何も読み込みませんでした。',
  importUnreadable: 'ファイルを読み取れませんでした。',
  reset: '進み具合をリセット',
  resetConfirm:
    'このブラウザーに保存された解答と復習スケジュールをすべて消去しますか。元に戻せません(控えが必要なら先に書き出してください)。',
  resetDone:
    '進み具合をリセットしました。このブラウザーにはこのコースのデータが何も保存されていません。',
  resetCancelled: 'リセットは行いませんでした。',
  warningsTitle: '保存された進み具合の一部を読み取れませんでした',
  warningsHelp: '壊れていなかったデータはすべて残しています。削除したのは次の項目だけです。',
  warn: {
    unreadable: '保存された進み具合をまったく読み取れなかったため、最初からやり直します。',
    truncated:
      '保存された進み具合が途中で切れているか壊れていました。壊れた箇所より前のデータは残しています。',
    'not-object': '保存された進み具合の形式が想定と異なるため、最初からやり直します。',
    'dropped-question': '問題 {id} の記録が壊れていたため削除しました({detail})。',
    'dropped-concept': '概念 {id} の復習スケジュールが壊れていたため削除しました({detail})。',
    migrated: '以前のバージョンのサイトで保存された進み具合を新しい形式に変換しました。',
    'newer-version':
      '新しいバージョンのサイトで保存された進み具合です(形式 {detail})。読み取れた分は残しています。',
    'unknown-version': '進み具合の形式バージョン({detail})が不明です。読み取れた分は残しています。',
    'not-saved':
      'このブラウザーでは進み具合を保存できませんでした(容量不足か、ストレージが無効です)。',
  },
  reviewDue: '復習の時期が来た概念',
  reviewDueCount: '{n} 個の概念が復習の時期です。',
  reviewDueOne: '1 個の概念が復習の時期です。',
  reviewNothing: 'いま復習が必要な概念はありません。',
  reviewNext: '次の復習は {concept}、{when}です。',
  reviewEmpty:
    'まだ復習するものはありません。レッスンで問題に答えると、その概念がここに戻ってきます。',
  reviewUpcoming: 'これからの復習',
  reviewConcept: '概念',
  reviewWhen: '予定',
  reviewOverdue: '{when}から復習待ち',
  reviewQuestionFor: '{concept} の問題',
  reviewNoQuestion: '{concept} の問題はこのページにありません。',
  reviewFresh: 'ページを開くたびに、問題の新しいバリエーションが出題されます。',
  interview: '面接形式のラウンド',
  practice: '練習セット',
  interviewIntro:
    '制限時間は {minutes} 分、問題は {n} 問です。終了するか時間切れになるまで、答え合わせの結果は表示されません。',
  start: 'ラウンドを開始',
  finish: '終了して結果を見る',
  timeLeft: '残り時間',
  minutesLeft: '残り {n} 分です。',
  oneMinuteLeft: '残り 1 分です。',
  started: 'ラウンドを開始しました。制限時間は {minutes} 分です。',
  timeUp: '時間切れです。結果は次のとおりです。',
  finished: 'ラウンドを終了しました。結果は次のとおりです。',
  restored: '前回終えたラウンドの結果です。下の問題はもう一度解けます。',
  newRound: '新しいラウンドを始める',
  debrief: '結果',
  totalScore: '得点: {total} 点中 {score} 点',
  questionN: '問 {n}',
  notAnswered: '未回答',
  resultScore: '1 点中 {score} 点',
  resultCorrect: '正解',
  resultWrong: '不正解',
  resultPartly: '部分的に正解',
  selfAssessed: '自己採点',
  goTo: '問 {n} の答え合わせへ移動',
  again: 'もう一度挑戦する',
  practiceTotal: '{n} 問中 {answered} 問回答 · 得点 {n} 点中 {score} 点',
};

/** STRINGS holds every progress UI string in every language. */
export const STRINGS: Record<ProgressLang, ProgressStrings> = { en, ja };

/** progressLang picks the language from a lang tag such as "ja" or "en-US". */
export function progressLang(tag: string | null | undefined): ProgressLang {
  return langOf(tag ?? undefined);
}

/** fill replaces {name} placeholders (src/i18n/ui.ts). */
export const fill = fillUi;

/** warningText is a warning as a sentence for the learner. */
export function warningText(t: ProgressStrings, w: ProgressWarning): string {
  return fill(t.warn[w.code], { id: w.id ?? '?', detail: w.detail ?? '' });
}

/** formatScore shows a 0..n score with at most two decimals. */
export function formatScore(n: number, lang: ProgressLang): string {
  return new Intl.NumberFormat(lang, { maximumFractionDigits: 2 }).format(n);
}

/** formatWhen says when a date is, relative to now: "in 3 days", "2 hours ago". */
export function formatWhen(date: Date, now: Date, lang: ProgressLang): string {
  const rtf = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
  const s = (date.getTime() - now.getTime()) / 1000;
  const abs = Math.abs(s);
  if (abs < 3600) return rtf.format(Math.round(s / 60), 'minute');
  if (abs < 86_400) return rtf.format(Math.round(s / 3600), 'hour');
  return rtf.format(Math.round(s / 86_400), 'day');
}

/** conceptsOf reads a data-concepts attribute (comma- or space-separated). */
export function conceptsOf(attr: string | null | undefined): string[] {
  return (attr ?? '').split(/[\s,]+/).filter(Boolean);
}
