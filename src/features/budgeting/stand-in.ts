import { SHARED_COMPONENTS } from '../../core/modules/registry.js';
import type { ModuleType } from '../moduletypes/contract.js';

/** TEMPORARY: the participatory budgeting type's request phase until the maps branch brings the PB type (replaced at the merge). */
export const PB_STAND_IN: ModuleType = {
  blueprintType: 'PB',
  key: 'participatory-budgeting',
  title: { en: 'Participatory budgeting', de: 'Bürgerhaushalt' },
  description: { en: '', de: '' },
  offered: false,
  phases: [{ type: 'a4_candy_budgeting:submit', content: 'proposal', features: ['crud', 'comment', 'rate'], name: { en: 'Request phase', de: 'Vorschlagsphase' }, description: { en: 'Post ideas with budget proposals, comment on them and rate them.', de: 'Vorschläge mit Budget einreichen, kommentieren und bewerten.' } }],
  components: [SHARED_COMPONENTS.basic, SHARED_COMPONENTS.phases, SHARED_COMPONENTS.categories, SHARED_COMPONENTS.labels],
};
