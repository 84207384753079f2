import { TokensScreen, tokensAction, tokensLoader } from "~/screens/organization-tokens";

export const loader = tokensLoader("admin");
export const action = tokensAction("admin");
export default TokensScreen;
