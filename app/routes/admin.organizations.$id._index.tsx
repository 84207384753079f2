import { SettingsScreen, settingsAction, settingsLoader } from "~/screens/organization-settings";

export const loader = settingsLoader("admin");
export const action = settingsAction("admin");
export default SettingsScreen;
