import type { IdeaWords } from '../idealike/words.js';

/** Budgeting speaks of proposals (issue 37.7): the idea pages' texts in its words. */
export const PROPOSAL_WORDS: IdeaWords = {
  '%(count)s idea': '%(count)s proposal',
  '%(count)s ideas': '%(count)s proposals',
  'Submit your idea': 'Submit your proposal',
  'Log in to submit your idea': 'Log in to submit your proposal',
  'Submit a new idea for this project': 'Submit a new proposal for this project',
  'Edit idea': 'Edit proposal',
  'Filter ideas': 'Filter proposals',
  'Pages of ideas': 'Pages of proposals',
  'Map of the ideas': 'Map of the proposals',
  'Rate this idea': 'Rate this proposal',
  'Image of the idea %(name)s': 'Image of the proposal %(name)s',
  'Why do you report this idea?': 'Why do you report this proposal?',
  'Delete idea': 'Delete proposal',
  'Do you really want to delete the idea "%(name)s"? Its comments and ratings are deleted with it.': 'Do you really want to delete the proposal "%(name)s"? Its comments and ratings are deleted with it.',
  'Moderate the idea': 'Moderate the proposal',
  'Thank you. The moderators have been told about this idea.': 'Thank you. The moderators have been told about this proposal.',
  'Your idea has been saved.': 'Your proposal has been saved.',
  'Your idea has been deleted.': 'Your proposal has been deleted.',
  'The moderation of the idea has been saved.': 'The moderation of the proposal has been saved.',
  'Feedback from the moderation on your idea': 'Feedback from the moderation on your proposal',
  'Hello %(name)s,\n\nthe moderation of the project "%(project)s" has given your idea "%(idea)s" the status "%(status)s":\n\n%(text)s\n\nView the idea: %(url)s':
    'Hello %(name)s,\n\nthe moderation of the project "%(project)s" has given your proposal "%(idea)s" the status "%(status)s":\n\n%(text)s\n\nView the proposal: %(url)s',
  'The moderation of the project "%(project)s" gave your idea "%(idea)s" feedback.': 'The moderation of the project "%(project)s" gave your proposal "%(idea)s" feedback.',
};
