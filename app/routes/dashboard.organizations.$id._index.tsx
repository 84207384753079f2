import { SettingsScreen, settingsAction, settingsLoader } from "~/screens/organization-settings";

export const loader = settingsLoader("dashboard");
export const action = settingsAction("dashboard");
export default SettingsScreen;
