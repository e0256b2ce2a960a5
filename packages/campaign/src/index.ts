/**
 * @rtbench/campaign: what a command that plans many runs (bisect, a release
 * matrix, claims) shares. The loop that holds a planner (campaign-loop.ts:
 * folder, lock, budget, stop and resume, told as typed events), the folder
 * and budget (campaign.ts), the state a planner keeps there, read as
 * untrusted input (campaign-state.ts), and the runs saved in it
 * (campaign-files.ts). Each run is measured by @rtbench/run.
 */
export { assertWritableFolder, BUDGET_EXIT, campaignFolder, CampaignBudget, campaignMachine, openCampaignFolder, type CampaignSay, type LineTone } from './campaign.ts';
export { campaignFilePath, readCampaignRun } from './campaign-files.ts';
export { runCampaign, type CampaignEvent, type CampaignListener, type CampaignPlanner, type CampaignRun, type CampaignTell } from './campaign-loop.ts';
export { identityDifference, openCampaignState, readCampaignState, resumeCampaignState, saveCampaignState, type CampaignStatePolicy, type OpenCampaign, type SavedCampaign } from './campaign-state.ts';
