import { UserSettings, userSettingsAction, userSettingsLoader } from "~/screens/user-settings";

export const loader = userSettingsLoader;
export const action = userSettingsAction;
export default UserSettings;
