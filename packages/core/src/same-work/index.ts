/** Same work on changing responses: learning a mask from an arm's answers, and comparing masked answers across variants. */
export { tokenize, valueText } from './tokens.ts';
export { fits, holes, learn, learnFrom, literalTemplate, maskedText, templateDifference, widen, HOLE_MARK, HOLE_SLACK, MOST_MASKED_SHARE, MOST_SHAPE_EDITS, type Template } from './template.ts';
export { AnswerLearner, bodyText, MOST_KINDS, MOST_LEARNED_CHARS, SAVED_CHARS, SAVED_KINDS, type Response } from './answers.ts';
export { answerName, answersDifference, maskedDigestText, standingAnswers, standingRound, unlikeText, unlikeWithinText } from './compare.ts';
export { firstDifferingLine, lineAt } from './lines.ts';
export { strictAnswers, strictAnswerText, strictDifference, type StrictAnswers } from './strict.ts';
export { normalizePatternsProblem, patternNormalizer, NORMALIZED_MARK } from './normalize.ts';
