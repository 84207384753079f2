import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { DeleteCarousel, deleteCarouselAction, deleteCarouselLoader } from "~/screens/organization-carousels";
import { areaOf } from "~/kernel/manage.server";

export const loader = (args: LoaderFunctionArgs) => deleteCarouselLoader(areaOf(args.request))(args);
export const action = (args: ActionFunctionArgs) => deleteCarouselAction(areaOf(args.request))(args);
export default DeleteCarousel;
