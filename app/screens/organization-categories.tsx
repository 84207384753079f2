import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "~/utils/redirect";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/utils/translate";
import { ConfirmDelete } from "~/components/confirm-delete";
import { CoverField } from "~/components/cover-field";
import { controlProps, ErrorList, useZodForm } from "~/components/form";
import { MoveButtons } from "~/components/move-buttons";
import { coverChoices, setCover } from "~/models/browse.server";
import { categoryFormSchema } from "~/models/forms/browse";
import { createCategory, deleteCategory, getCategory, listCategories, moveCategory, renameCategory } from "~/models/category.server";
import { redirectWithFlash } from "~/utils/flash.server";
import { moveIntent, readForm } from "~/utils/form-data.server";
import { parseForm } from "~/utils/form";
import { withManagedOrganization, type Area, type Managed } from "~/kernel/manage.server";

/** Categories (docs/product.md §2 categories tab, create and detail pages): create, rename, reorder, delete. */
const base = (m: Managed) => `${m.base}/categories`;

export function categoriesLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:category" }, (m) => ({
      base: base(m),
      categories: listCategories(m.db).map((c) => ({ id: c.id, name: c.name })),
    }));
}

export function categoriesAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:category" }, async (m) => {
      const formData = await readForm(request, context);
      const move = moveIntent(formData);
      if (move) {
        moveCategory(m.db, move.id, { direction: move.direction });
        return redirect(base(m));
      }
      const submission = parseForm(formData, categoryFormSchema.pick({ name: true }));
      if (submission.status !== "success") return json(submission.reply(), { status: 400 });
      createCategory(m.db, submission.value);
      return redirectWithFlash(base(m), "flash.categorySaved");
    });
}

export function Categories() {
  const { t } = useTranslation();
  const { base: here, categories } = useLoaderData<{ base: string; categories: Array<{ id: number; name: string }> }>();
  const [form, fields] = useZodForm({
    schema: categoryFormSchema.pick({ name: true }),
    lastResult: useActionData<SubmissionResult<string[]>>(),
  });
  return (
    <section>
      <h2>{t("categories.title")}</h2>
      {categories.length === 0 ? (
        <p className="empty-state">{t("categories.empty")}</p>
      ) : (
        <table className="table" data-testid="categories">
          <tbody>
            {categories.map((c, i) => (
              <tr key={c.id} data-category={c.name}>
                <td>
                  <Link to={`${here}/${c.id}`}>{c.name}</Link>
                </td>
                <td className="actions">
                  <MoveButtons id={c.id} first={i === 0} last={i === categories.length - 1} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Form method="post" className="panel" {...getFormProps(form)}>
        <h3>{t("categories.create")}</h3>
        <div className="field">
          <label htmlFor="category-name">{t("categories.name")}</label>
          <input {...controlProps(fields.name, "category-name")} key={fields.name.key} maxLength={100} required />
          <ErrorList id="category-name-error" errors={fields.name.errors} />
        </div>
        <button type="submit" className="primary" data-testid="create-category">
          {t("categories.create")}
        </button>
      </Form>
    </section>
  );
}

function categoryFrom(m: Managed, id: string | undefined) {
  const category = /^\d{1,15}$/.test(id ?? "") ? getCategory(m.db, Number(id)) : undefined;
  if (!category) throw new Response("Not Found", { status: 404 });
  return category;
}

export function categoryLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:category" }, (m) => {
      const category = categoryFrom(m, params.categoryId);
      const preview = category.coverFileId ? context.platform.imageUrl(m.organization.id, category.coverFileId, "cover") : null;
      return {
        base: base(m),
        category: { id: category.id, name: category.name, coverFileId: category.coverFileId, preview },
        images: coverChoices(m.db),
      };
    });
}

export function categoryAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:category" }, async (m) => {
      const category = categoryFrom(m, params.categoryId);
      const formData = await readForm(request, context);
      const submission = parseForm(formData, categoryFormSchema);
      if (submission.status !== "success") return json(submission.reply(), { status: 400 });
      // The cover (issue 18): checked before anything is written, so a bad choice changes nothing. A form
      // without the field leaves the cover as it is; an empty choice clears it.
      const cover = formData.has("cover_file_id") ? (submission.value.cover_file_id ?? null) : undefined;
      const failed = m.db.transaction((tx) => {
        if (cover !== undefined) {
          const set = setCover(tx, "category", category.id, cover);
          if (!set.ok) return set;
        }
        renameCategory(tx, category.id, submission.value);
        return null;
      });
      if (failed) return json(submission.reply({ fieldErrors: { [failed.field]: [failed.message] } }), { status: 400 });
      return redirectWithFlash(base(m), "flash.categorySaved");
    });
}

export function EditCategory() {
  const { t } = useTranslation();
  const {
    base: here,
    category,
    images,
  } = useLoaderData<{
    base: string;
    category: { id: number; name: string; coverFileId: number | null; preview: string | null };
    images: Array<{ id: number; name: string }>;
  }>();
  const [form, fields] = useZodForm({
    schema: categoryFormSchema,
    lastResult: useActionData<SubmissionResult<string[]>>(),
    defaultValue: { name: category.name, cover_file_id: category.coverFileId ? String(category.coverFileId) : "" },
  });
  return (
    <section>
      <h2>{t("categories.edit")}</h2>
      <Form method="post" className="panel" {...getFormProps(form)}>
        <div className="field">
          <label htmlFor="category-name">{t("categories.name")}</label>
          <input {...controlProps(fields.name, "category-name")} key={fields.name.key} maxLength={100} required />
          <ErrorList id="category-name-error" errors={fields.name.errors} />
        </div>
        <CoverField
          id="category-cover"
          value={fields.cover_file_id.initialValue as string | undefined}
          preview={category.preview}
          images={images}
          errors={fields.cover_file_id.errors}
        />
        <button type="submit" className="primary">
          {t("categories.save")}
        </button>{" "}
        <Link to={here}>{t("confirm.cancel")}</Link>
      </Form>
      <div className="panel danger-zone">
        <Link to={`${here}/${category.id}/delete`} className="button danger" data-testid="delete-category">
          {t("categories.delete")}
        </Link>
      </div>
    </section>
  );
}

export function deleteCategoryLoader(area: Area) {
  return ({ request, context, params }: LoaderFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:category" }, (m) => {
      const category = categoryFrom(m, params.categoryId);
      return { name: category.name, back: `${base(m)}/${category.id}` };
    });
}

export function deleteCategoryAction(area: Area) {
  return ({ request, context, params }: ActionFunctionArgs) =>
    withManagedOrganization(request, context, params, { area, capability: "write:category" }, async (m) => {
      const category = categoryFrom(m, params.categoryId);
      await readForm(request, context);
      deleteCategory(m.db, category.id);
      return redirectWithFlash(base(m), "flash.categoryDeleted");
    });
}

export function DeleteCategory() {
  const { name, back } = useLoaderData<{ name: string; back: string }>();
  return <ConfirmDelete name={name} cancelTo={back} />;
}
