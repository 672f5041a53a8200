"""Accounts: sign up, log in (limited, never checking a refused password), change password."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scorekeeper import languages
from scorekeeper.forms.accounts import SignupForm
from scorekeeper.http import AuthedRequest
from scorekeeper.ratelimit import login_allowed, password_change_allowed, signup_allowed
from scorekeeper.views.players import post_data


class LoginView(auth_views.LoginView):
    """Django's login, with a database-backed limit on attempts."""

    redirect_authenticated_user = True

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        # The language stored on the account comes back, on whichever phone this is.
        response = super().form_valid(form)
        languages.restore(form.get_user(), response)
        return response

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if login_allowed(request):
            return super().post(request, *args, **kwargs)
        # Refused without looking at the password: the form is made anew, never validated
        # (validating it would authenticate), with the name as typed. The answer and its
        # time are the same whatever the password was.
        name = request.POST.get("username", "")[:150]
        form = self.get_form_class()(request, initial={"username": name})
        context = self.get_context_data(form=form, too_many_attempts=True)
        return self.render_to_response(context, status=429)


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's password change, limited like log-in: it checks the old password."""

    request: AuthedRequest

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["account_language"] = languages.stored_info(self.request.user)
        return context

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if password_change_allowed(request):
            return super().post(request, *args, **kwargs)
        form = self.get_form_class()(user=self.request.user)
        context = self.get_context_data(form=form, too_many_attempts=True)
        return self.render_to_response(context, status=429)


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("home")
    if request.method == "POST" and not signup_allowed(request):
        ctx = {"form": SignupForm(), "too_many_attempts": True}
        return render(request, "registration/signup.html", ctx, status=429)
    form = SignupForm(post_data(request))
    if request.method == "POST" and form.is_valid():
        user = form.save()
        languages.adopt_chosen(request, user)  # chosen in the footer before signing up
        login(request, user)
        messages.success(
            request,
            _("Welcome, %(name)s! Add the people you play with.") % {"name": user.get_username()},
        )
        return redirect("players")
    return render(request, "registration/signup.html", {"form": form})
