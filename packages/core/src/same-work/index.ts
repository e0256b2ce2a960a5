/** Same work on changing responses: learning a mask from one process's answers, and comparing masked answers across processes. */
export { tokenize } from './tokens.ts';
export { fits, holes, learn, literalTemplate, maskedText, widen, HOLE_MARK, HOLE_SLACK, type Template } from './template.ts';
export { AnswerLearner, bodyText, MOST_KINDS, MOST_LEARNED_CHARS, SAVED_CHARS, SAVED_KINDS, type Response } from './answers.ts';
export { answerName, answersDifference, changingShape, firstDifferingLine, lineAt, templateDifference } from './compare.ts';
